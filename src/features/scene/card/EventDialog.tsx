import { Button } from "@radix-ui/themes";
import { lazy, Suspense, useRef, useState } from "react";
import type { SceneItem, ViewerState } from "../item/types";

// The dialog (Radix Dialog and AlertDialog, focus trap, scroll lock) is code the
// scene's first paint does not need: it loads when a card's details are first opened.
const loadContent = () => import("./EventDialogContent");
const EventDialogContent = lazy(loadContent);

/**
 * 'View Details' on a scene card: the button, and once pressed the event dialog
 * (EventDialogContent), which stays mounted afterwards so it closes with its animation.
 */
export function EventDialog({
  item,
  viewer,
  now,
}: {
  item: SceneItem;
  viewer: ViewerState | null | undefined;
  now: number;
}) {
  const [open, setOpen] = useState(false);
  const [used, setUsed] = useState(false);
  const trigger = useRef<HTMLButtonElement>(null);
  return (
    <>
      <Button
        ref={trigger}
        variant="soft"
        color="gray"
        aria-haspopup="dialog"
        aria-expanded={open}
        data-state={open ? "open" : "closed"}
        onPointerEnter={() => void loadContent()}
        onFocus={() => void loadContent()}
        onClick={() => {
          setUsed(true);
          setOpen(true);
        }}
      >
        View Details
      </Button>
      {used ? (
        <Suspense fallback={null}>
          <EventDialogContent item={item} viewer={viewer} now={now} open={open} setOpen={setOpen} trigger={trigger} />
        </Suspense>
      ) : null}
    </>
  );
}

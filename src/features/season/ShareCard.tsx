import { Button, Flex } from "@radix-ui/themes";
import { DownloadIcon, Share1Icon } from "@radix-ui/react-icons";
import { useState } from "react";
import type { Season } from "@convex/model/season";
import { downloadBlob } from "@/lib/download";
import { toast } from "@/lib/toast";
import { seasonCardPng } from "./seasonCard";

/** Download (or share, where the device can) a card of the season's headline numbers, drawn in the browser. */
export function ShareCard({ season }: { season: Season }) {
  const [busy, setBusy] = useState(false);
  const fileName = `stagetime-season-${season.from}-to-${season.to}.png`;
  const run = async (share: boolean) => {
    setBusy(true);
    try {
      const png = await seasonCardPng(season);
      const file = new File([png], fileName, { type: "image/png" });
      if (share && navigator.canShare?.({ files: [file] })) {
        await navigator.share({ files: [file], title: "My season" });
      } else {
        downloadBlob(png, fileName, 10_000);
      }
    } catch (err) {
      if ((err as Error)?.name !== "AbortError") toast.error("Could not make the card. Please try again.");
    } finally {
      setBusy(false);
    }
  };
  const canShareFiles = typeof navigator !== "undefined" && typeof navigator.canShare === "function";
  return (
    <Flex gap="2" wrap="wrap">
      <Button variant="soft" loading={busy} onClick={() => void run(false)}>
        <DownloadIcon aria-hidden="true" /> Download card
      </Button>
      {canShareFiles ? (
        <Button variant="soft" loading={busy} onClick={() => void run(true)}>
          <Share1Icon aria-hidden="true" /> Share card
        </Button>
      ) : null}
    </Flex>
  );
}

import { Button, Checkbox, Flex, RadioGroup, Text, TextField } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useId, useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { zonedEpoch } from "@convex/lib/time";
import { errorMessage } from "@/lib/convexErrors";
import { useMicNight } from "./useLiveList";
import { FieldFrame } from "@/components/form/FieldFrame";

function NumberField({
  label,
  value,
  onChange,
  min,
  max,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  min: number;
  max: number;
}) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label}>
      <TextField.Root
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
    </FieldFrame>
  );
}

function TimeField({ label, value, onChange }: { label: string; value: string; onChange: (v: string) => void }) {
  const id = useId();
  return (
    <FieldFrame id={id} label={label}>
      <TextField.Root id={id} type="time" value={value} onChange={(e) => onChange(e.target.value)} />
    </FieldFrame>
  );
}

/** The mic whose list it is: its id, its time zone, and its usual set length and list time (the form's defaults). */
export type ListMic = {
  micId: Id<"sceneItems">;
  timeZone: string;
  defaultSetMinutes: number | undefined;
  listTimeLocal: string | undefined;
};

/** The host's form to open tonight's list (the server checks every value again). */
export function OpenListForm({ micId, timeZone, defaultSetMinutes, listTimeLocal }: ListMic) {
  const open = useMutation(api.nightLists.open);
  const { today } = useMicNight(timeZone);
  const [spots, setSpots] = useState("10");
  const [waitlist, setWaitlist] = useState("10");
  const [setMinutes, setSetMinutes] = useState(String(defaultSetMinutes ?? 5));
  const [light, setLight] = useState("1");
  const [mode, setMode] = useState<"first_come" | "lottery">("first_come");
  const [drawTime, setDrawTime] = useState(listTimeLocal ?? "19:30");
  const [bucket, setBucket] = useState(false);
  const [opensAt, setOpensAt] = useState("");
  const [busy, setBusy] = useState(false);
  const bucketId = useId();

  const submit = async () => {
    setBusy(true);
    try {
      await open({
        micId,
        date: today,
        spots: Number(spots),
        waitlistSpots: Number(waitlist),
        setMinutes: Number(setMinutes),
        lightMinutes: Number(light),
        mode,
        ...(mode === "lottery" ? { drawAt: zonedEpoch(today, drawTime, timeZone), bucket } : {}),
        ...(opensAt ? { signupOpensAt: zonedEpoch(today, opensAt, timeZone) } : {}),
      });
      toast.success("Tonight's list is open");
    } catch (error) {
      toast.error(errorMessage(error, "Could not open the list. Please try again."));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      aria-label="Open tonight's list"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <Flex direction="column" gap="3">
        <Flex gap="3" wrap="wrap">
          <NumberField label="Spots" value={spots} onChange={setSpots} min={1} max={100} />
          <NumberField label="Waitlist places" value={waitlist} onChange={setWaitlist} min={0} max={100} />
          <NumberField label="Set length (minutes)" value={setMinutes} onChange={setSetMinutes} min={1} max={60} />
          <NumberField label="Light (minutes before the end)" value={light} onChange={setLight} min={0} max={10} />
        </Flex>
        <Flex direction="column" gap="1">
          <Text as="div" size="2" weight="medium" id="list-mode-label">
            Sign-up mode
          </Text>
          <RadioGroup.Root
            aria-labelledby="list-mode-label"
            value={mode}
            onValueChange={(v) => setMode(v as "first_come" | "lottery")}
          >
            <RadioGroup.Item value="first_come">First come, first served</RadioGroup.Item>
            <RadioGroup.Item value="lottery">Lottery</RadioGroup.Item>
          </RadioGroup.Root>
        </Flex>
        {mode === "lottery" ? (
          <Flex gap="3" align="end" wrap="wrap">
            <TimeField label="Draw at" value={drawTime} onChange={setDrawTime} />
            <Text as="label" size="2" htmlFor={bucketId}>
              <Flex gap="2" align="center">
                <Checkbox id={bucketId} checked={bucket} onCheckedChange={(c) => setBucket(c === true)} />
                Bucket (sign-ups after the draw go to the waitlist)
              </Flex>
            </Text>
          </Flex>
        ) : null}
        <TimeField label="Online sign-up opens (empty: the list time)" value={opensAt} onChange={setOpensAt} />
        <Flex>
          <Button type="submit" loading={busy}>
            Open tonight's list
          </Button>
        </Flex>
      </Flex>
    </form>
  );
}

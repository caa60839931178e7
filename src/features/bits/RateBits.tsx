import { Box, Button, Card, Checkbox, Flex, Heading, SegmentedControl, Text, TextField } from "@radix-ui/themes";
import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { format } from "date-fns";
import { useState } from "react";
import { z } from "zod";
import { api } from "@convex/_generated/api";
import type { Id } from "@convex/_generated/dataModel";
import { MAX_RATING_NOTE_LENGTH, RATING_NOTE_TOO_LONG } from "@convex/lib/bitRules";
import { ErrorBoundary } from "@/components/ErrorBoundary";
import { errorMessage } from "@/lib/convexErrors";
import { toast } from "@/lib/toast";
import { RATING_LABELS } from "./BitNumbers";

type Rating = "landed" | "okay" | "flat";
type Choice = { rating?: Rating; note: string; cut: boolean };

/** What the form sends, checked as the server checks it: a rating per bit, notes of at most 500 characters. */
const ratingsSchema = z
  .array(
    z.object({
      bitId: z.string(),
      rating: z.enum(["landed", "okay", "flat"]),
      note: z.string().trim().max(MAX_RATING_NOTE_LENGTH, RATING_NOTE_TOO_LONG).optional(),
      cut: z.boolean().optional(),
    }),
  )
  .min(1, "Rate at least one bit, or skip");

function BitRatingRow({
  title,
  choice,
  onChange,
  allowCut,
}: {
  title: string;
  choice: Choice;
  onChange: (c: Choice) => void;
  allowCut: boolean;
}) {
  const [noteOpen, setNoteOpen] = useState(choice.note !== "");
  return (
    <Card size="1" asChild>
      <li aria-label={title}>
        <Flex direction="column" gap="2">
          <Text weight="bold" style={{ overflowWrap: "anywhere" }}>
            {title}
          </Text>
          <SegmentedControl.Root
            size="3"
            value={choice.rating ?? ""}
            onValueChange={(v) => onChange({ ...choice, rating: v as Rating })}
            aria-label={`How did ${title} go?`}
          >
            {(["landed", "okay", "flat"] as const).map((r) => (
              <SegmentedControl.Item key={r} value={r}>
                {RATING_LABELS[r]}
              </SegmentedControl.Item>
            ))}
          </SegmentedControl.Root>
          <Flex gap="3" align="center" wrap="wrap">
            {allowCut ? (
              <Text as="label" size="2">
                <Flex gap="2" align="center">
                  <Checkbox checked={choice.cut} onCheckedChange={(c) => onChange({ ...choice, cut: c === true })} />
                  Cut it
                </Flex>
              </Text>
            ) : null}
            {!noteOpen ? (
              <Button size="1" variant="ghost" onClick={() => setNoteOpen(true)} aria-label={`Add a note on ${title}`}>
                Add a note
              </Button>
            ) : null}
          </Flex>
          {noteOpen ? (
            <TextField.Root
              aria-label={`Note on ${title}`}
              placeholder="What worked, what to change"
              value={choice.note}
              onChange={(e) => onChange({ ...choice, note: e.target.value })}
            />
          ) : null}
        </Flex>
      </li>
    </Card>
  );
}

/** One tap per bit: landed / okay / flat, a note, "cut it"; saves the rated ones. */
export function RateBitsForm({
  performanceId,
  bits,
  allowCut,
  onDone,
  onSkip,
}: {
  performanceId: Id<"performances">;
  bits: Array<{ _id: Id<"bits">; title: string }>;
  allowCut: boolean;
  onDone?: () => void;
  onSkip?: () => void;
}) {
  const rate = useMutation(api.ratings.rate);
  const [choices, setChoices] = useState<Record<string, Choice>>({});
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const choiceOf = (id: string): Choice => choices[id] ?? { note: "", cut: false };
  const save = async () => {
    const picked = bits.flatMap((b) => {
      const c = choiceOf(b._id);
      return c.rating === undefined
        ? []
        : [
            {
              bitId: b._id,
              rating: c.rating,
              note: c.note.trim() === "" ? undefined : c.note,
              cut: c.cut || undefined,
            },
          ];
    });
    const parsed = ratingsSchema.safeParse(picked);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Please check the ratings");
      return;
    }
    setError(null);
    setBusy(true);
    try {
      await rate({ performanceId, ratings: picked });
      toast.success("Ratings saved");
      onDone?.();
    } catch (err) {
      toast.error(errorMessage(err, "Could not save the ratings. Please try again."));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Flex direction="column" gap="3">
      <Flex direction="column" gap="2" asChild>
        <ul style={{ listStyle: "none", margin: 0, padding: 0 }} aria-label="Bits of the set">
          {bits.map((b) => (
            <BitRatingRow
              key={b._id}
              title={b.title}
              allowCut={allowCut}
              choice={choiceOf(b._id)}
              onChange={(c) => setChoices((prev) => ({ ...prev, [b._id]: c }))}
            />
          ))}
        </ul>
      </Flex>
      {error ? (
        <Text size="2" color="red" role="alert">
          {error}
        </Text>
      ) : null}
      <Flex gap="3" justify="end" wrap="wrap">
        {onSkip ? (
          <Button variant="soft" color="gray" size="3" onClick={onSkip} disabled={busy}>
            Skip
          </Button>
        ) : null}
        <Button size="3" loading={busy} onClick={() => void save()}>
          Save ratings
        </Button>
      </Flex>
    </Flex>
  );
}

function Prompt() {
  const pending = useQuery(api.ratings.pending);
  const skip = useMutation(api.ratings.skip);
  if (!pending) return null;
  return (
    <Card size="3" asChild>
      <section aria-labelledby="how-did-it-go">
        <Flex direction="column" gap="3">
          <Box>
            <Heading as="h2" size="5" id="how-did-it-go">
              How did it go?
            </Heading>
            <Text as="p" size="2" color="gray">
              {pending.venueName} · {format(pending.performedAt, "EEE, MMM d")}
              {pending.setListTitle ? ` · ${pending.setListTitle}` : ""}
            </Text>
          </Box>
          <RateBitsForm
            key={pending.performanceId}
            performanceId={pending.performanceId}
            bits={pending.bits}
            allowCut
            onSkip={() => {
              skip({ performanceId: pending.performanceId }).catch((err: unknown) =>
                toast.error(errorMessage(err, "Could not skip. Please try again.")),
              );
            }}
          />
        </Flex>
      </section>
    </Card>
  );
}

/** "How did it go?" for the newest set waiting for its bits' ratings; nothing when none is waiting or signed out. */
export function RatingPrompt() {
  const { isAuthenticated } = useConvexAuth();
  if (!isAuthenticated) return null;
  return (
    <ErrorBoundary fallback={null}>
      <Prompt />
    </ErrorBoundary>
  );
}

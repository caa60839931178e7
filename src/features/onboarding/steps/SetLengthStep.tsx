import { Flex } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { ConvexError } from "convex/values";
import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/convexErrors";
import { viewerTimeZone } from "@/lib/timeZone";
import { api } from "@convex/_generated/api";
import { OnboardingShell } from "../OnboardingShell";
import { alreadyFavorited, chosenSceneItem, SET_MINUTES } from "../progress";
import { MinutesSlider, NextButton, StepHeading } from "../StepParts";
import { TOASTS, toastSignIn } from "../toasts";
import { useOnboardingProgress } from "../useOnboardingProgress";

/** Step 4: the length of the set at the chosen mic; Next logs it and favourites the mic. */
export function SetLengthStep() {
  const { progress, dispatch, goTo, redirect } = useOnboardingProgress();
  const logFirstSet = useMutation(api.onboarding.logFirstSet);
  const [saving, setSaving] = useState(false);
  if (!progress.venue) return redirect("venue");
  const sceneItemId = chosenSceneItem(progress);
  if (!sceneItemId) return redirect("event");
  const venue = progress.venue;
  const minutes = progress.setDetails.minutes;

  const next = async () => {
    // Back then Next again must not log the same first set twice.
    if (alreadyFavorited(progress, sceneItemId)) {
      goTo("success");
      return;
    }
    setSaving(true);
    try {
      // One transaction: the set and the favourite are saved together or not at all.
      await logFirstSet({ sceneItemId, minutes, timeZone: viewerTimeZone() });
    } catch (err) {
      setSaving(false);
      if (toastSignIn(err)) return;
      if (err instanceof ConvexError)
        toast.error("Could not save", { description: errorMessage(err, "Please check your inputs and try again.") });
      else toast.error(TOASTS.favorite.title, { description: TOASTS.favorite.description });
      return;
    }
    dispatch({ type: "saved", kind: "favorite", entry: { venue, event: sceneItemId, details: null, sceneItemId } });
    goTo("success");
  };

  return (
    <OnboardingShell step={4}>
      <Flex direction="column" gap="5">
        <StepHeading
          lead={`We'll log this set at ${progress.matchedTitle ?? venue.venueName} and add it to your favorites.`}
        >
          How long was your set?
        </StepHeading>
        <MinutesSlider
          minutes={minutes}
          label="Set length (minutes)"
          slider={{ min: SET_MINUTES.min, max: SET_MINUTES.max, step: SET_MINUTES.step, value: minutes }}
          range={SET_MINUTES}
          onChange={(v) => dispatch({ type: "setMinutes", minutes: v })}
        />
        <NextButton onClick={() => void next()} loading={saving} />
      </Flex>
    </OnboardingShell>
  );
}

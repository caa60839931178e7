import { useMutation } from "convex/react";
import { useState } from "react";
import { useNavigate } from "@/lib/router";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";
import { retryPendingSaves } from "./progress";
import { dispatchProgress, forgetProgress, useOnboardingProgress } from "./useOnboardingProgress";

export const SETUP_ERROR = {
  title: "Setup Error",
  description: "There was an issue completing setup. Skip or try again.",
} as const;
export const SETUP_PARTIAL = "Setup completed! Some data may need to be re-entered later.";

/**
 * Skip (default goal) or finish onboarding with a goal, then open the dashboard.
 * Finishing first retries the mics whose save failed earlier.
 */
export function useFinishOnboarding() {
  const skip = useMutation(api.profiles.skipOnboarding);
  const complete = useMutation(api.profiles.completeOnboarding);
  const createEvent = useMutation(api.events.create);
  const { progress } = useOnboardingProgress();
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const finish = async (call: () => Promise<null>, retry: () => void) => {
    setPending(true);
    try {
      // The mutation resolves once profiles.me reflects it, so the startup gate
      // will not bounce the dashboard back here.
      await call();
      forgetProgress();
      void navigate(paths.dashboard, { replace: true });
      return true;
    } catch (err) {
      console.error("Could not finish onboarding", err);
      toast.error(SETUP_ERROR.title, {
        id: "onboarding-setup-error",
        description: errorMessage(err, SETUP_ERROR.description),
        action: { label: "Try again", onClick: retry },
      });
      setPending(false);
      return false;
    }
  };

  const retryFailedSaves = () =>
    retryPendingSaves(
      progress,
      (args) => createEvent(args),
      (action) => dispatchProgress(progress.userId, action),
      (err) => errorMessage(err, "Could not save"),
    );

  const skipNow = () =>
    finish(
      () => skip({}),
      () => void skipNow(),
    );

  const completeNow = async (weeklyGoalMinutes: number): Promise<void> => {
    setPending(true);
    const allSaved = await retryFailedSaves();
    const done = await finish(
      () => complete({ weeklyGoalMinutes }),
      () => void completeNow(weeklyGoalMinutes),
    );
    if (done && !allSaved) toast.warning(SETUP_PARTIAL, { id: "onboarding-partial" });
  };

  return {
    pending,
    skip: skipNow,
    complete: completeNow,
  };
}

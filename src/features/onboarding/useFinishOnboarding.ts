import { useMutation } from "convex/react";
import { useState } from "react";
import { useNavigate } from "react-router-dom";
import { toast } from "sonner";
import { api } from "../../../convex/_generated/api";
import { errorMessage } from "@/lib/convexErrors";
import { paths } from "@/lib/paths";

/** Skip (default goal) or finish onboarding with a goal, then open the dashboard. */
export function useFinishOnboarding() {
  const skip = useMutation(api.profiles.skipOnboarding);
  const complete = useMutation(api.profiles.completeOnboarding);
  const navigate = useNavigate();
  const [pending, setPending] = useState(false);

  const run = async (call: () => Promise<null>) => {
    setPending(true);
    try {
      // The mutation resolves once profiles.me reflects it, so the startup gate
      // will not bounce the dashboard back here.
      await call();
      void navigate(paths.dashboard, { replace: true });
    } catch (err) {
      console.error("Could not finish onboarding", err);
      toast.error("Setup Error", {
        description: errorMessage(err, "There was an issue completing setup. Skip or try again."),
      });
      setPending(false);
    }
  };

  return {
    pending,
    skip: () => run(() => skip({})),
    complete: (weeklyGoalMinutes: number) => run(() => complete({ weeklyGoalMinutes })),
  };
}

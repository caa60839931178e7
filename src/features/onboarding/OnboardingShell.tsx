import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex } from "@radix-ui/themes";
import { useEffect, type ReactNode } from "react";
import { Navigate, useNavigate } from "@/lib/router";
import { LoadingState } from "@/components/LoadingState";
import { PageContainer } from "@/components/PageContainer";
import { onboardingSteps, paths, type OnboardingStep } from "@/lib/paths";
import { OnboardingProgress } from "./OnboardingProgress";
import { useFinishOnboarding } from "./useFinishOnboarding";
import { useOnboardingProgress } from "./useOnboardingProgress";

type OnboardingShellProps = {
  /** 1-based step number. */
  step: number;
  children: ReactNode;
  /** Hide the Skip button (the last step has its own). */
  hideSkip?: boolean;
  /** Where Back goes when it is not simply the step before. */
  backTo?: OnboardingStep;
};

/**
 * Frame of each onboarding step: progress, Back and Skip. Records the step as
 * the place to resume, and sends a comedian who already finished (or skipped)
 * onboarding to the dashboard.
 */
export function OnboardingShell({ step, children, hideSkip, backTo }: OnboardingShellProps) {
  const navigate = useNavigate();
  const { skip, pending } = useFinishOnboarding();
  const { me, dispatch, ready } = useOnboardingProgress();
  const previous = backTo ?? (step > 1 ? onboardingSteps[step - 2] : null);
  const done = me !== null && me !== undefined && (me.onboardingCompleted || !me.needsOnboarding);

  useEffect(() => {
    // Welcome is not a place to resume: it offers the saved step instead.
    if (ready && !done && step > 1) dispatch({ type: "visit", step });
  }, [ready, done, dispatch, step]);

  if (!ready) return <LoadingState label="Loading your setup…" />;
  if (done) return <Navigate to={paths.dashboard} replace />;
  return (
    <PageContainer size="2">
      <Flex direction="column" gap="4">
        <OnboardingProgress step={step} />
        <Flex justify="between" align="center">
          {previous ? (
            <Button variant="ghost" color="gray" onClick={() => void navigate(paths.onboarding(previous))}>
              <ArrowLeftIcon aria-hidden="true" /> Back
            </Button>
          ) : (
            <span />
          )}
          {hideSkip ? null : (
            <Button variant="ghost" color="gray" loading={pending} onClick={() => void skip()}>
              Skip onboarding
            </Button>
          )}
        </Flex>
        <Card size={{ initial: "2", sm: "4" }}>{children}</Card>
      </Flex>
    </PageContainer>
  );
}

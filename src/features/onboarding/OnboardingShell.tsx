import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { useNavigate } from "react-router-dom";
import { PageContainer } from "@/components/PageContainer";
import { onboardingSteps, paths } from "@/lib/paths";
import { OnboardingProgress } from "./OnboardingProgress";
import { useFinishOnboarding } from "./useFinishOnboarding";

type OnboardingShellProps = {
  /** 1-based step number. */
  step: number;
  children: ReactNode;
  /** Hide the Skip button (the last step has its own). */
  hideSkip?: boolean;
};

/** Frame of each onboarding step: progress, Back (to the previous step) and Skip. */
export function OnboardingShell({ step, children, hideSkip }: OnboardingShellProps) {
  const navigate = useNavigate();
  const { skip, pending } = useFinishOnboarding();
  const previous = step > 1 ? onboardingSteps[step - 2] : null;
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

import { ArrowLeftIcon } from "@radix-ui/react-icons";
import { Button, Card, Flex, Heading, Progress, Text } from "@radix-ui/themes";
import type { ReactNode } from "react";
import { Link } from "@/lib/router";
import { PageContainer } from "@/components/PageContainer";
import { paths } from "@/lib/paths";

type WizardFrameProps = {
  /** 1-based step, or null for a page after the last step (success). */
  step: number | null;
  total: number;
  title: string;
  subtitle?: ReactNode;
  children: ReactNode;
};

/** The frame of a wizard step: 'Step n of N', the question, and 'Back to Dashboard'
 * (the page after the last step has its own buttons instead). */
export function WizardFrame({ step, total, title, subtitle, children }: WizardFrameProps) {
  return (
    <PageContainer size="2">
      <Flex direction="column" gap="4">
        <Flex justify="between" align="center" gap="3" style={{ display: step === null ? "none" : undefined }}>
          <Button asChild variant="ghost" color="gray" size="2">
            <Link to={paths.dashboard}>
              <ArrowLeftIcon aria-hidden="true" /> Back to Dashboard
            </Link>
          </Button>
          {step !== null ? (
            <Text size="2" color="gray" weight="medium">
              Step {step} of {total}
            </Text>
          ) : null}
        </Flex>
        {step !== null ? <Progress value={(step / total) * 100} aria-label={`Step ${step} of ${total}`} /> : null}
        <Card size={{ initial: "2", sm: "4" }}>
          <Flex direction="column" gap="4">
            <Flex direction="column" gap="1">
              <Heading as="h1" size="6">
                {title}
              </Heading>
              {subtitle ? (
                <Text size="2" color="gray">
                  {subtitle}
                </Text>
              ) : null}
            </Flex>
            {children}
          </Flex>
        </Card>
      </Flex>
    </PageContainer>
  );
}

/** 'Back' to the wizard's previous step. */
export function WizardBackButton({ onClick }: { onClick: () => void }) {
  return (
    <Button type="button" variant="soft" color="gray" size="4" onClick={onClick}>
      <ArrowLeftIcon aria-hidden="true" /> Back
    </Button>
  );
}

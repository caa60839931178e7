import { Flex, Text } from "@radix-ui/themes";
import { OnboardingShell } from "../OnboardingShell";
import { goalFromSlider, goalLabel, GOAL_MINUTES, sliderFromGoal } from "../progress";
import { MinutesSlider, NextButton, StepHeading } from "../StepParts";
import { useOnboardingProgress } from "../useOnboardingProgress";

/** Step 9: the weekly stage-time goal. */
export function GoalStep() {
  const { progress, dispatch, goTo } = useOnboardingProgress();
  const goal = progress.weeklyGoal;
  return (
    <OnboardingShell step={9}>
      <Flex direction="column" gap="5">
        <StepHeading lead="How many minutes of stage time do you want each week? You can change it any time.">
          Set your weekly goal
        </StepHeading>
        <MinutesSlider
          minutes={goal}
          label="Weekly goal (minutes)"
          slider={{ min: 0, max: GOAL_MINUTES.max, step: GOAL_MINUTES.step, value: sliderFromGoal(goal) }}
          range={GOAL_MINUTES}
          onChange={(v) => dispatch({ type: "setGoal", minutes: goalFromSlider(v) })}
        >
          <Text size="2" color="violet" align="center">
            {goalLabel(goal)}
          </Text>
        </MinutesSlider>
        <NextButton onClick={() => goTo("complete")} />
      </Flex>
    </OnboardingShell>
  );
}

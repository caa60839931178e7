import { Pencil1Icon } from "@radix-ui/react-icons";
import { Button } from "@radix-ui/themes";
import { useMutation } from "convex/react";
import { useEffect, useState } from "react";
import { useFormState } from "react-hook-form";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";
import { DialogShell } from "@/components/DialogShell";
import { FormActions } from "@/components/FormActions";
import { Form, FormSubmit, FormTextField } from "../../components/form";
import { errorCode } from "../../lib/convexErrors";
import { GOAL_HINT, INVALID_GOAL_MESSAGE, INVALID_GOAL_TITLE, goalSchema, type GoalValues } from "./goalSchema";

function toastInvalidGoal() {
  toast.error(INVALID_GOAL_TITLE, { id: "invalid-goal", description: INVALID_GOAL_MESSAGE });
}

/** Toasts 'Invalid goal' after each submit the schema refused (the field shows the message too). */
function InvalidGoalToast() {
  const { submitCount, errors } = useFormState<GoalValues>();
  const invalid = errors.weeklyGoalMinutes !== undefined;
  useEffect(() => {
    if (submitCount > 0 && invalid) toastInvalidGoal();
  }, [submitCount, invalid]);
  return null;
}

/** The weekly goal card's 'Edit goal' dialog: whole minutes, 1 to 100, saved on the profile. */
export function EditGoalDialog({ goal }: { goal: number }) {
  const [open, setOpen] = useState(false);
  const update = useMutation(api.goals.update);

  const onSubmit = async ({ weeklyGoalMinutes }: GoalValues) => {
    try {
      const saved = await update({ weeklyGoalMinutes });
      toast.success("Goal updated!", { description: `Your weekly goal is now ${saved} minutes.` });
      setOpen(false);
    } catch (err) {
      if (errorCode(err) === "INVALID_INPUT") {
        toastInvalidGoal();
      } else {
        console.error(err);
        toast.error("Error", { description: "Failed to save your weekly goal." });
      }
    }
  };

  return (
    <DialogShell
      trigger={
        <Button variant="soft" size="2">
          <Pencil1Icon aria-hidden="true" /> Edit goal
        </Button>
      }
      title="Weekly goal"
      description="How many minutes of stage time do you want each week (Sunday to Saturday)?"
      maxWidth="400px"
      open={open}
      onOpenChange={setOpen}
    >
      {/* Mounted only while open, so it starts from the saved goal each time. */}
      <Form
        schema={goalSchema}
        defaultValues={{ weeklyGoalMinutes: goal }}
        onSubmit={onSubmit}
        aria-label="Weekly goal"
      >
        <InvalidGoalToast />
        <FormTextField name="weeklyGoalMinutes" label="Minutes per week" type="number" hint={GOAL_HINT} required />
        <FormActions cancel="dialog" mt="2">
          <FormSubmit size="2">Save goal</FormSubmit>
        </FormActions>
      </Form>
    </DialogShell>
  );
}

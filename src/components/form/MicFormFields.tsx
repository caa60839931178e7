import { Grid } from "@radix-ui/themes";
import { useWatch } from "react-hook-form";
import { DAY_NAMES } from "@convex/lib/time";
import { NO_DAY } from "@/lib/micSchema";
import { FormSelectField } from "./FormSelectField";
import { FormTextField } from "./FormTextField";

const DAY_OPTIONS = [
  { value: NO_DAY, label: "No day" },
  ...DAY_NAMES.map((name, i) => ({ value: String(i), label: name })),
];

/** The cost types as the edit forms name them. */
export const COST_TYPE_OPTIONS = [
  { value: "free", label: "Free" },
  { value: "cover", label: "Cover (mic fee)" },
  { value: "minimum", label: "Drink minimum" },
  { value: "combo", label: "Fee + minimum" },
] as const;

/** A mic's day select ('No day' or Sunday to Saturday), for the fields of `micScheduleSchema`. */
export function MicDayField() {
  return <FormSelectField name="dayOfWeek" label="Day" options={DAY_OPTIONS} />;
}

/** An open mic's cost select and the amounts its type uses, for the fields of `micCostSchema`. */
export function MicCostFields() {
  const costType = useWatch({ name: "costType" }) as string;
  return (
    <Grid columns={{ initial: "1", sm: "3" }} gap="3">
      <FormSelectField name="costType" label="Cost" options={COST_TYPE_OPTIONS} />
      {costType === "cover" || costType === "combo" ? (
        <FormTextField name="coverAmount" label="Mic fee ($)" type="number" size="2" />
      ) : null}
      {costType === "minimum" || costType === "combo" ? (
        <FormTextField name="minimumItems" label="Minimum items" type="number" size="2" />
      ) : null}
    </Grid>
  );
}

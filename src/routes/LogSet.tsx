import { LogSetDetailsStep } from "@/features/log-set/steps/LogSetDetailsStep";
import { LogSetEventStep } from "@/features/log-set/steps/LogSetEventStep";
import { LogSetSuccessStep } from "@/features/log-set/steps/LogSetSuccessStep";
import { LogSetVenueDetailsStep } from "@/features/log-set/steps/LogSetVenueDetailsStep";
import { LogSetVenueStep } from "@/features/log-set/steps/LogSetVenueStep";
import { wizardSlots } from "./wizardParts";

/** The log-a-set wizard: 1 venue, 2 event, 3 set details, 4 venue/mic details, 5 success. */
export default function LogSet({ step = 1 }: { step?: number }) {
  switch (step) {
    case 2:
      return <LogSetEventStep slots={wizardSlots} />;
    case 3:
      return <LogSetDetailsStep />;
    case 4:
      return <LogSetVenueDetailsStep slots={wizardSlots} />;
    case 5:
      return <LogSetSuccessStep />;
    default:
      return <LogSetVenueStep slots={wizardSlots} />;
  }
}

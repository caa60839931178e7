import { useEffect } from "react";
import { toast } from "sonner";
import { useLogSetWizard } from "../wizardStore";

export const MISSING_VENUE = { title: "Missing info", description: "Please select a venue first." } as const;

/** Sends the comedian back to the venue step with 'Missing info: Please select a venue first.' */
export function MissingVenue() {
  const { redirect } = useLogSetWizard();
  useEffect(() => {
    toast.error(MISSING_VENUE.title, { description: MISSING_VENUE.description, id: "log-set-missing-venue" });
  }, []);
  return redirect("venue");
}

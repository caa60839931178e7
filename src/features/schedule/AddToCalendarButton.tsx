import { DownloadIcon } from "@radix-ui/react-icons";
import { Button } from "@radix-ui/themes";
import { useConvex } from "convex/react";
import { useState } from "react";
import { toast } from "sonner";
import { api } from "@convex/_generated/api";

/** Downloads stagetime-schedule.ics: every scheduled mic with its recurrence. */
export function AddToCalendarButton() {
  const convex = useConvex();
  const [busy, setBusy] = useState(false);
  const onClick = async () => {
    setBusy(true);
    try {
      const fromMs = Date.now();
      // The calendar library loads only when someone asks for the file.
      const [items, { buildScheduleCalendar, downloadCalendarFile }] = await Promise.all([
        convex.query(api.schedule.calendar, { fromMs }),
        import("./calendarExport"),
      ]);
      const { ics, events } = buildScheduleCalendar(items, fromMs);
      if (ics === null) {
        toast("Nothing to add yet", { description: "Add mics to your schedule to put them in your calendar." });
        return;
      }
      downloadCalendarFile(ics);
      toast.success("Calendar file ready", {
        description: `${events} ${events === 1 ? "event" : "events"} in stagetime-schedule.ics`,
      });
    } catch (err) {
      console.error(err);
      toast.error("Failed to create the calendar file", { description: "Please try again later." });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Button variant="soft" size="3" loading={busy} onClick={() => void onClick()}>
      <DownloadIcon aria-hidden="true" /> Add to calendar
    </Button>
  );
}

import { useState } from "react";
import { toast } from "sonner";
import { errorMessage } from "@/lib/convexErrors";

/** Runs a list mutation, showing the server's message when it is refused; resolves whether it went through. */
export function useListAction() {
  const [busy, setBusy] = useState<string | null>(null);
  const run = async (key: string, action: () => Promise<unknown>, success?: string): Promise<boolean> => {
    setBusy(key);
    try {
      await action();
      if (success) toast.success(success);
      return true;
    } catch (error) {
      toast.error(errorMessage(error, "Could not update the list. Please try again."));
      return false;
    } finally {
      setBusy(null);
    }
  };
  return { busy, run };
}

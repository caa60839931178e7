import { useEffect, useState } from "react";
import { lastAccount, readSnapshot, type OfflineMic } from "./store";

/** The mics this device's account follows or scheduled, from its offline copy (empty until read). */
export function useOfflineMics(): OfflineMic[] {
  const [mics, setMics] = useState<OfflineMic[]>([]);
  useEffect(() => {
    let live = true;
    void (async () => {
      const userId = await lastAccount();
      const snapshot = userId === null ? null : await readSnapshot(userId);
      if (live) setMics(snapshot?.mics ?? []);
    })().catch(() => undefined);
    return () => {
      live = false;
    };
  }, []);
  return mics;
}

import { useConvexAuth, useMutation, useQuery } from "convex/react";
import { useCallback, useEffect, useState } from "react";
import { api } from "@convex/_generated/api";
import { localSubscription, pushSupported, PushRefused, subscribeThisDevice } from "./pushDevice";

export type DeviceState =
  | { kind: "loading" }
  | { kind: "unsupported" }
  | { kind: "not_configured" }
  | { kind: "blocked" }
  | { kind: "off" }
  | { kind: "on"; endpoint: string };

/** Whether this device gets the comedian's pushes, and turning that on or off. */
export function useThisDevice() {
  const { isAuthenticated } = useConvexAuth();
  const config = useQuery(api.notifications.pushConfig);
  const subscribe = useMutation(api.notifications.subscribe);
  const unsubscribe = useMutation(api.notifications.unsubscribe);
  const [endpoint, setEndpoint] = useState<string | null | undefined>(undefined);
  const [permission, setPermission] = useState(() => (pushSupported() ? Notification.permission : "denied"));

  useEffect(() => {
    let live = true;
    localSubscription()
      .then((sub) => live && setEndpoint(sub?.endpoint ?? null))
      .catch(() => live && setEndpoint(null));
    return () => {
      live = false;
    };
  }, []);

  const stored = useQuery(
    api.notifications.deviceSubscribed,
    isAuthenticated && endpoint ? { endpoint: endpoint.slice(0, 1000) } : "skip",
  );

  let state: DeviceState;
  if (!pushSupported()) state = { kind: "unsupported" };
  else if (config === undefined || endpoint === undefined) state = { kind: "loading" };
  else if (config.publicKey === null) state = { kind: "not_configured" };
  else if (permission === "denied") state = { kind: "blocked" };
  else if (endpoint !== null && stored === undefined) state = { kind: "loading" };
  else if (endpoint !== null && stored === true && permission === "granted") state = { kind: "on", endpoint };
  else state = { kind: "off" };

  const enable = useCallback(async () => {
    if (!config?.publicKey) return;
    try {
      const sub = await subscribeThisDevice(config.publicKey);
      await subscribe({ subscription: sub });
      setEndpoint(sub.endpoint);
    } finally {
      setPermission(Notification.permission);
    }
  }, [config, subscribe]);

  const disable = useCallback(async () => {
    const sub = await localSubscription();
    if (sub === null) return;
    await unsubscribe({ endpoint: sub.endpoint });
    await sub.unsubscribe();
    setEndpoint(null);
  }, [unsubscribe]);

  return { state, enable, disable };
}

export { PushRefused };

import { useConvexConnectionState } from "convex/react";
import { useOnline } from "./useOnline";

/**
 * Whether the backend can be reached now: the device has a network and the live connection
 * is up. A phone on a bar's Wi-Fi with no internet reports a network but no connection.
 */
export function useReachable(): boolean {
  const online = useOnline();
  const { isWebSocketConnected } = useConvexConnectionState();
  return online && isWebSocketConnected;
}

import { useConvex, useConvexAuth } from "convex/react";
import { useEffect, useState } from "react";
import { afterNextPaint } from "@/lib/afterNextPaint";
import { useNavigate } from "@/lib/router";
import { toast } from "@/lib/toast";
import type { SceneItem, SceneItemId } from "../item/types";

type Flows = typeof import("./cardActions");
let flows: Promise<Flows> | null = null;
const loadFlows = () =>
  (flows ??= import("./cardActions").catch((err: unknown) => ((flows = null), Promise.reject(err))));

/**
 * The list's card buttons (check in, schedule, favourite): their flows are
 * not part of the first card's code but load once the list has painted, so
 * a tap finds them in; a tap before then waits for them. A failed load says
 * what the flow's own failure says.
 */
export function useCardActions() {
  const client = useConvex();
  const { isAuthenticated } = useConvexAuth();
  const navigate = useNavigate();
  const [pendingId, setPendingId] = useState<SceneItemId | null>(null);
  useEffect(() => afterNextPaint(() => void loadFlows().catch(() => undefined)), []);

  const ctx = { client, isAuthenticated };
  const run = (failure: string, flow: (f: Flows) => Promise<unknown>) =>
    loadFlows().then(flow, (err: unknown) => {
      console.error(err);
      toast.error(failure);
    });
  return {
    pendingId,
    checkIn: (id: SceneItemId) =>
      run("Check-in failed. Please try again.", (f) => f.checkInFlow(ctx, id, setPendingId)),
    addToSchedule: (item: SceneItem) =>
      run("Failed to add to schedule", (f) => f.addToScheduleFlow(ctx, navigate, "card", item)),
    removeFromSchedule: (id: SceneItemId) =>
      run("Failed to remove from schedule", (f) => f.eventActions(client).removeFromSchedule(id)),
    toggleFavorite: (id: SceneItemId, isFavorite: boolean) =>
      run("Failed to update favorite", (f) => f.toggleFavoriteFlow(ctx, id, isFavorite)),
  };
}

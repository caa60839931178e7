/** What the claims tests share: reading a mic, the own-mic edit form, and an approved claimant. */
import { api } from "../_generated/api";
import type { Id } from "../_generated/dataModel";
import { createAdmin, createUser, type TestBackend } from "./test.setup";

export async function getItem(t: TestBackend, id: Id<"sceneItems">) {
  return await t.run(async (ctx) => await ctx.db.get("sceneItems", id));
}

export const ownEdit = {
  title: "My Mic Now",
  dayOfWeek: 4,
  startTimeLocal: "21:00",
  listTimeLocal: "20:30",
  signupMethod: "online" as const,
  signupLink: "https://example.com/list",
  hostName: "Sam Host",
  notes: "Bring friends",
  costInfo: { type: "cover" as const, coverAmount: 3 },
  performanceMinutes: 7,
};

export async function approvedClaimant(t: TestBackend, micId: Id<"sceneItems">) {
  const admin = await createAdmin(t);
  const comic = await createUser(t);
  const claimId = await comic.asUser.mutation(api.claims.submit, { micId });
  await admin.asUser.mutation(api.claims.review, { id: claimId, status: "approved" });
  return comic;
}

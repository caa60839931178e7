import type { FunctionReturnType } from "convex/server";
import type { api } from "@convex/_generated/api";

/** A scene item as the event page loads it. */
export type OwnedMic = NonNullable<FunctionReturnType<typeof api.scene.get>>;

/**
 * A Convex deployment has its functions' code loaded and its runtime warm before
 * the first request. This backend loads a module on its first call, so the first
 * query of each module paid for reading, compiling and running its bundle (the
 * first scene query took ~300 ms longer than the next), and the first time zone
 * lookup paid for loading the ICU zone data (~70 ms). After the start (and after
 * each reload), every module is loaded in the background, one at a time,
 * yielding between modules so requests that arrive meanwhile are served; a
 * request for a module being loaded waits for that same load (the engine keeps
 * one per file). While `busy()` (a client's query or mutation is being run) it
 * waits, up to YIELD_TO_REQUESTS_MS before each module: the first queries
 * after a start load their own modules without others loading beside them.
 */
import { whileBusy } from "../database/index.js";

export async function warmFunctions(
  engine: { moduleNames(): string[]; loadModule(name: string): Promise<unknown> },
  busy: () => boolean = () => false,
): Promise<void> {
  // The zone data functions read through Intl (isValidTimeZone, local dates).
  new Intl.DateTimeFormat("en-US", { timeZone: "America/New_York", dateStyle: "full", timeStyle: "long" }).format(0);
  for (const name of engine.moduleNames()) {
    await new Promise<void>((resolve) => setImmediate(resolve));
    await whileBusy(busy);
    // A module that fails to load fails the same way when it is called, with its error.
    await engine.loadModule(name).catch(() => undefined);
  }
}

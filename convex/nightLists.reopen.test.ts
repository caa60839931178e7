import { describe, expect, test, vi } from "vitest";
import { api } from "./_generated/api";
// Load @date-fns/tz before fake timers replace Date (see checkIns.test.ts).
import "./lib/time";
import { isSameNight } from "./model/nightListReopen";
import { expectAppError } from "./testing/test.expect";
import { comics, host, listOf, names, nyWed, openList, t, useWednesdayNight } from "./testing/test.nightLists";
import { createUser } from "./testing/test.setup";

useWednesdayNight();

describe("reopening a closed list", () => {
  test("the host reopens tonight's list after closing it; everyone keeps their place and can sign up again", async () => {
    const listId = await openList({ spots: 3 });
    const [a, b, c] = await comics(3);
    for (const u of [a, b]) await u.asUser.mutation(api.nightLists.signUp, { listId });
    await host.asUser.mutation(api.nightLists.close, { listId });
    await expectAppError(c.asUser.mutation(api.nightLists.signUp, { listId }), "LIST_CLOSED");

    await host.asUser.mutation(api.nightLists.reopen, { listId });
    const list = await listOf(a);
    expect(list.status).toBe("open");
    expect(names(list.list)).toEqual(["Comic 1", "Comic 2"]);
    await c.asUser.mutation(api.nightLists.signUp, { listId });
    expect(names((await listOf()).list)).toEqual(["Comic 1", "Comic 2", "Comic 3"]);
    // An open list is not reopened twice.
    await expectAppError(
      host.asUser.mutation(api.nightLists.reopen, { listId }),
      "INVALID_INPUT",
      "The list is already open",
    );
  });

  test("only the host (or an admin) reopens; a comedian on the list cannot", async () => {
    const listId = await openList();
    const comic = await createUser(t, { name: "Not The Host" });
    await host.asUser.mutation(api.nightLists.close, { listId });
    await expectAppError(comic.asUser.mutation(api.nightLists.reopen, { listId }), "FORBIDDEN");
    expect((await listOf()).status).toBe("closed");
  });

  test("a list of another night stays closed", async () => {
    const listId = await openList();
    await host.asUser.mutation(api.nightLists.close, { listId });
    // Thursday at noon: Wednesday's night is over.
    vi.setSystemTime(Date.parse("2026-11-26T12:00:00-05:00"));
    await expectAppError(
      host.asUser.mutation(api.nightLists.reopen, { listId }),
      "LIST_CLOSED",
      "Only tonight's list can be reopened",
    );
  });
});

describe("isSameNight", () => {
  const NY = "America/New_York";
  test("tonight, and after midnight until 6 AM, is the same night", () => {
    expect(isSameNight("2026-11-25", nyWed("23:59"), NY)).toBe(true);
    expect(isSameNight("2026-11-25", Date.parse("2026-11-26T01:30:00-05:00"), NY)).toBe(true);
    expect(isSameNight("2026-11-25", Date.parse("2026-11-26T06:30:00-05:00"), NY)).toBe(false);
    expect(isSameNight("2026-11-24", nyWed("20:00"), NY)).toBe(false);
  });
});

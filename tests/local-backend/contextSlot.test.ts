/**
 * ContextSlot (local-backend/src/common/contextSlot.mjs) stands in for AsyncLocalStorage in the
 * backend and in convex-test: each slot must behave as its own AsyncLocalStorage would.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { describe, expect, it } from "vitest";
import { ContextSlot } from "../../local-backend/src/common/contextSlot.mjs";

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe("ContextSlot", () => {
  it("keeps each slot's value across awaits, nested runs, exit and concurrent runs, as AsyncLocalStorage does", async () => {
    for (const make of [() => new AsyncLocalStorage<string>(), () => new ContextSlot<string>()]) {
      const a = make();
      const b = make();
      const seen: Array<string | undefined> = [];
      const task = async (name: string) =>
        await a.run(name, async () => {
          await tick();
          seen.push(a.getStore());
          await b.run(`${name}-b`, async () => {
            await tick();
            seen.push(`${a.getStore()}/${b.getStore()}`);
            a.exit(() => seen.push(`${a.getStore()}/${b.getStore()}`));
            await a.run(`${name}-inner`, async () => {
              await tick();
              seen.push(`${a.getStore()}/${b.getStore()}`);
            });
          });
          seen.push(`${a.getStore()}/${b.getStore()}`);
        });
      await Promise.all([task("x"), task("y")]);
      expect(a.getStore()).toBeUndefined();
      expect(seen.sort()).toEqual(
        [
          "x",
          "y",
          "x/x-b",
          "y/y-b",
          "undefined/x-b",
          "undefined/y-b",
          "x-inner/x-b",
          "y-inner/y-b",
          "x/undefined",
          "y/undefined",
        ].sort(),
      );
      expect(a.run("r", (n: number) => n + 1, 1)).toBe(2);
      expect(() =>
        a.run("r", () => {
          throw new Error("thrown");
        }),
      ).toThrow("thrown");
      expect(a.getStore()).toBeUndefined();
    }
  });
});

/**
 * The lottery draws with `Math.random`. On the local backend that was Node's own generator, one
 * xorshift128+ for the whole serving thread: a host who saw a few values of one draw (the order a
 * shuffle produced) could solve its state and know the next draw before running it. Convex seeds
 * each function run from a cryptographic source; so does the local backend now, and the same
 * attack finds no state to predict from.
 */
import { ConvexHttpClient } from "convex/browser";
import { makeFunctionReference } from "convex/server";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { type Backend, startBackend } from "../local-backend/harness";
import { predictFrom } from "./support/v8Random";

let backend: Backend;
let client: ConvexHttpClient;
const draw = makeFunctionReference<"mutation", { count: number }, number[]>("random:draw");
const drawInAction = makeFunctionReference<"action", { count: number }, number[]>("random:drawInAction");

beforeAll(async () => {
  backend = await startBackend();
  client = new ConvexHttpClient(backend.url);
});

afterAll(async () => {
  await backend?.dispose();
});

const bitsOf = (value: number) => BigInt(Math.round(value * 2 ** 52));

describe("Math.random in functions cannot be predicted from earlier draws", () => {
  test("the attack works on Node's own Math.random (the tool is sound)", () => {
    const observed = Array.from({ length: 5 }, () => Math.random());
    // Five outputs straddle a refill of V8's 64-value cache at most once in a dozen tries.
    const predicted = predictFrom(observed) ?? predictFrom(Array.from({ length: 5 }, () => Math.random()));
    expect(predicted).not.toBeNull();
    const next = Array.from({ length: 3 }, () => Math.random());
    expect(next.every((value) => predicted!.has(bitsOf(value)))).toBe(true);
  });

  for (const [kind, run] of [
    ["a mutation", (count: number) => client.mutation(draw, { count })],
    ["an action", (count: number) => client.action(drawInAction, { count })],
  ] as const) {
    test(`${kind}'s draws reveal no generator state and do not give the next draw`, async () => {
      let solved = 0;
      let foreseen = 0;
      for (let attempt = 0; attempt < 4; attempt++) {
        const observed = await run(5);
        expect(observed.every((value) => value >= 0 && value < 1)).toBe(true);
        const predicted = predictFrom(observed);
        if (predicted === null) continue;
        solved++;
        const next = await run(3);
        if (next.some((value) => predicted.has(bitsOf(value)))) foreseen++;
      }
      expect({ solved, foreseen }).toEqual({ solved: 0, foreseen: 0 });
    });
  }
});

import { describe, expect, test } from "vitest";
import { initialBarState, nextBarState, type BarState } from "./scrollHide";

function run(positions: number[], start: BarState = initialBarState): boolean[] {
  const seen: boolean[] = [];
  let state = start;
  for (const y of positions) {
    state = nextBarState(state, y);
    seen.push(state.hidden);
  }
  return seen;
}

describe("nextBarState", () => {
  test.each([
    { name: "small scroll within 10 px keeps the bar", ys: [4, 10], hidden: [false, false] },
    { name: "scrolling down past 10 px hides it", ys: [5, 11, 40], hidden: [false, true, true] },
    { name: "scrolling up brings it back", ys: [50, 200, 180], hidden: [true, true, false] },
    { name: "coming back near the top shows it", ys: [300, 400, 8], hidden: [true, true, false] },
    { name: "rubber-band negative offsets count as the top", ys: [200, -20], hidden: [true, false] },
    { name: "down again after up hides again", ys: [100, 60, 90], hidden: [true, false, true] },
  ])("$name", ({ ys, hidden }) => {
    expect(run(ys)).toEqual(hidden);
  });

  test("no movement keeps the state", () => {
    const hiddenState = { hidden: true, lastY: 120 };
    expect(nextBarState(hiddenState, 120)).toBe(hiddenState);
  });
});

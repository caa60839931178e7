import { afterEach, beforeEach, expect, test, vi } from "vitest";
import { afterNextPaint } from "./afterNextPaint";

let frames: Array<() => void> = [];

beforeEach(() => {
  vi.useFakeTimers();
  frames = [];
  vi.stubGlobal("requestAnimationFrame", (callback: () => void) => frames.push(callback));
  vi.stubGlobal("cancelAnimationFrame", (id: number) => {
    frames[id - 1] = () => undefined;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

test("runs after the next frame, in a task of its own (once that frame has been painted)", () => {
  const done = vi.fn();
  afterNextPaint(done);
  vi.runAllTimers();
  expect(done).not.toHaveBeenCalled(); // no frame yet
  frames.shift()!();
  expect(done).not.toHaveBeenCalled(); // not inside the frame's callbacks either
  vi.runAllTimers();
  expect(done).toHaveBeenCalledTimes(1);
});

test("a cancel before or after the frame stops it", () => {
  const early = vi.fn();
  afterNextPaint(early)();
  frames.forEach((frame) => frame());
  vi.runAllTimers();
  expect(early).not.toHaveBeenCalled();

  const late = vi.fn();
  const cancel = afterNextPaint(late);
  frames[frames.length - 1]();
  cancel();
  vi.runAllTimers();
  expect(late).not.toHaveBeenCalled();
});

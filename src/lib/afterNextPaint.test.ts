import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { afterNextPaint, usePainted } from "./afterNextPaint";

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

describe("usePainted, in a real React root", () => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  // The probe renders nothing, so React DOM needs no more of a container than an
  // element it can listen on and a document with nothing focused (no DOM here).
  const noop = () => undefined;
  const container = {
    nodeType: 1,
    nodeName: "DIV",
    tagName: "DIV",
    addEventListener: noop,
    removeEventListener: noop,
    ownerDocument: {
      nodeType: 9,
      addEventListener: noop,
      removeEventListener: noop,
      defaultView: { document: { activeElement: null }, HTMLIFrameElement: class {} },
    },
  };
  let renders: boolean[] = [];
  let root: Root | null = null;

  function Probe() {
    renders.push(usePainted());
    return null;
  }

  const mount = () =>
    act(() => {
      renders = [];
      root = createRoot(container as unknown as Element);
      root.render(createElement(Probe));
    });
  /** The next animation frame's callbacks, as the browser runs them before it paints. */
  const frame = () => act(() => frames.splice(0).forEach((callback) => callback()));

  afterEach(() => {
    if (root) act(() => root!.unmount());
    root = null;
  });

  test("false until a frame has been painted, then true (one more render)", () => {
    mount();
    expect(renders).toEqual([false]);
    act(() => vi.runAllTimers());
    expect(renders).toEqual([false]); // timers alone are no frame
    frame();
    expect(renders).toEqual([false]); // the frame's own callbacks run before its paint
    act(() => vi.runAllTimers());
    expect(renders).toEqual([false, true]);
    // Later frames change nothing.
    frame();
    act(() => vi.runAllTimers());
    expect(renders).toEqual([false, true]);
  });

  test("a root unmounted before the paint is never updated, and its frame is cancelled", () => {
    mount();
    const requested = frames.length;
    expect(requested).toBe(1);
    act(() => root!.unmount());
    root = null;
    frame();
    expect(vi.getTimerCount()).toBe(0); // the frame's callback was cancelled: no task queued
    act(() => vi.runAllTimers());
    expect(renders).toEqual([false]);
  });
});

import { describe, expect, it, vi } from "vitest";
import { throttle } from "./throttle.ts";

describe("throttle", () => {
  it("runs the first call and drops calls within the interval", () => {
    let t = 0;
    const fn = vi.fn();
    const throttled = throttle(fn, 2000, () => t);
    throttled("a");
    t = 1999;
    throttled("b");
    expect(fn.mock.calls).toEqual([["a"]]);
    t = 2000;
    throttled("c");
    expect(fn.mock.calls).toEqual([["a"], ["c"]]);
  });
});

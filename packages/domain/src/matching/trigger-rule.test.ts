import { describe, expect, it } from "vitest";
import { firesOnRise, triggerReached } from "./trigger-rule.ts";

describe("the trigger rule", () => {
  it("fires stops against their side and take-profits with it", () => {
    expect(firesOnRise(true, false)).toBe(true); // buy stop: on a rise
    expect(firesOnRise(false, false)).toBe(false); // sell stop / stop-loss of a long: on a fall
    expect(firesOnRise(true, true)).toBe(false); // buy take-profit (closing a short): on a fall
    expect(firesOnRise(false, true)).toBe(true); // sell take-profit (closing a long): on a rise
  });

  it("is reached at the trigger itself and beyond, never before", () => {
    expect(triggerReached(true, 100, 99)).toBe(false);
    expect(triggerReached(true, 100, 100)).toBe(true);
    expect(triggerReached(true, 100, 101)).toBe(true);
    expect(triggerReached(false, 100, 101)).toBe(false);
    expect(triggerReached(false, 100, 100)).toBe(true);
    expect(triggerReached(false, 100, 99)).toBe(true);
  });
});

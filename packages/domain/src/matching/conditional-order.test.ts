import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  firesAt,
  firesOnRise,
  legFiresOnRise,
  legTriggerValid,
  legTriggerValidDecimal,
  stopMarketCapTicks,
  triggerReached,
} from "./conditional-order.ts";

describe("the conditional-order rule", () => {
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

  it("fires nothing at once before there is a reference price", () => {
    expect(firesAt(true, 100, 0)).toBe(false);
    expect(firesAt(false, 100, 0)).toBe(false);
    expect(firesAt(false, 100, 99)).toBe(true);
  });

  it("wants a buy's take-profit above and stop-loss below, a sell's the reverse", () => {
    expect(legFiresOnRise(true, true)).toBe(true);
    expect(legFiresOnRise(true, false)).toBe(false);
    expect(legTriggerValid(true, true, 101, 100)).toBe(true);
    expect(legTriggerValid(true, true, 100, 100)).toBe(false);
    expect(legTriggerValid(true, false, 99, 100)).toBe(true);
    expect(legTriggerValid(true, false, 101, 100)).toBe(false);
    expect(legTriggerValid(false, true, 99, 100)).toBe(true);
    expect(legTriggerValid(false, false, 101, 100)).toBe(true);
    expect(legTriggerValid(false, false, 100, 100)).toBe(false);
    expect(legTriggerValidDecimal(true, true, "100.01", "100")).toBe(true);
    expect(legTriggerValidDecimal(true, true, "100.00", "100")).toBe(false);
    expect(legTriggerValidDecimal(false, false, "99.999", "100")).toBe(false);
    expect(legTriggerValidDecimal(false, false, "1", "0")).toBe(true);
  });

  it("caps a stop-market buy 5% beyond its trigger, rounded up, within the price range", () => {
    expect(stopMarketCapTicks(100, 1_000)).toBe(105);
    expect(stopMarketCapTicks(101, 1_000)).toBe(107);
    expect(stopMarketCapTicks(990, 1_000)).toBe(1_000);
  });
});

describe("conditional-order properties", () => {
  const tick = fc.integer({ min: 1, max: 1_000_000 });

  it("once reached, stays reached for every price further in its direction", () => {
    fc.assert(
      fc.property(fc.boolean(), tick, tick, tick, (onRise, trigger, a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        const [near, far] = onRise ? [lo, hi] : [hi, lo];
        if (triggerReached(onRise, trigger, near)) expect(triggerReached(onRise, trigger, far)).toBe(true);
      }),
    );
  });

  it("never has both legs of a valid OCO pair reached at one price", () => {
    fc.assert(
      fc.property(fc.boolean(), tick, tick, tick, tick, (buy, ref, tp, sl, price) => {
        if (!legTriggerValid(buy, true, tp, ref) || !legTriggerValid(buy, false, sl, ref)) return;
        // Valid against the same reference means valid against each other, too.
        expect(legTriggerValid(buy, true, tp, sl)).toBe(true);
        const tpHit = triggerReached(legFiresOnRise(buy, true), tp, price);
        const slHit = triggerReached(legFiresOnRise(buy, false), sl, price);
        expect(tpHit && slHit).toBe(false);
        // The price that left both unfired is the reference itself.
        expect(triggerReached(legFiresOnRise(buy, true), tp, ref)).toBe(false);
      }),
    );
  });

  it("answers the same on decimal strings as on ticks", () => {
    fc.assert(
      fc.property(
        fc.boolean(),
        fc.boolean(),
        tick,
        tick,
        fc.integer({ min: 0, max: 6 }),
        (buy, tp, t, r, scale) => {
          const dec = (n: number) => {
            const digits = String(n).padStart(scale + 1, "0");
            return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
          };
          expect(legTriggerValidDecimal(buy, tp, dec(t), dec(r))).toBe(legTriggerValid(buy, tp, t, r));
        },
      ),
    );
  });

  it("caps a stop-market buy at or beyond its trigger and at most 5% (plus a tick) past it", () => {
    fc.assert(
      fc.property(tick, (stop) => {
        const cap = stopMarketCapTicks(stop, Number.MAX_SAFE_INTEGER);
        expect(cap).toBeGreaterThanOrEqual(stop);
        expect(cap).toBeLessThanOrEqual(stop + Math.ceil(stop / 20));
        expect(stopMarketCapTicks(stop, stop)).toBe(stop);
      }),
    );
  });
});

import { listInstruments, pairUnits, planMarketBuy } from "@meridian/domain";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { planMarketBuyOn } from "./order-plan.ts";
import type { VenueBook } from "./venue.ts";

const listed = listInstruments();
if (!listed.ok) throw new Error(listed.error.code);
const btc = listed.value.find((i) => i.spec.symbol === "BTCUSDT");
if (btc === undefined) throw new Error("BTCUSDT not listed");
const spec = btc.spec;
const units = pairUnits(spec);
if (units === null) throw new Error("no units");

/** A venue book whose asks are `levels` (best first); only `depth` is read. */
function venueOf(levels: Array<[number, number]>): VenueBook {
  return { book: { depth: (_side: number, n: number) => levels.slice(0, n) } } as unknown as VenueBook;
}

const ladder = fc
  .array(fc.record({ gap: fc.integer({ min: 1, max: 50 }), lots: fc.integer({ min: 1, max: 40 }) }), {
    maxLength: 40,
    size: "max",
  })
  .map((ls) => {
    let price = 9_700_000;
    return ls.map(({ gap, lots }): [number, number] => {
      price += gap;
      return [price, lots];
    });
  });
const want = fc.oneof(
  fc.integer({ min: 1, max: 1200 }).map((lots) => ({ lots })),
  fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.integer({ min: 0, max: 10_000 }))
    .map(([quote, ppm]) => ({ quote, rates: { makerPpm: ppm, takerPpm: ppm } })),
);

describe("market buy plan on the nearest ask levels first", () => {
  it("equals the plan on the whole ladder (up to 1,000 levels)", () => {
    fc.assert(
      fc.property(ladder, want, (levels, w) => {
        expect(planMarketBuyOn(spec, units, venueOf(levels), w, 1)).toEqual(
          planMarketBuy(spec, units, levels, w),
        );
      }),
    );
  });
});

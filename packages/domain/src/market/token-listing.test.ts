import { describe, expect, it } from "vitest";
import { defineInstrument, priceToTicks } from "../instrument.ts";
import { tokenListing } from "./listings.ts";

describe("tokenListing", () => {
  it("derives filters that keep five significant digits and a lot worth about a cent", () => {
    const cases = [
      { price: "0.0021", tick: "0.0000001", lot: "1", ref: "0.0021000" },
      { price: "0.08", tick: "0.000001", lot: "1", ref: "0.080000" },
      { price: "1.234567", tick: "0.0001", lot: "0.01", ref: "1.2345" },
      { price: "650", tick: "0.01", lot: "0.0001", ref: "650.00" },
      { price: "0.000000123", tick: "0.00000001", lot: "1", ref: "0.00000012" },
    ];
    for (const c of cases) {
      const listing = tokenListing({ base: "ABC", name: "Abc", price: c.price, marketCap: "0" });
      expect(listing?.instrument, c.price).toMatchObject({
        symbol: "ABCUSDT",
        tickSize: c.tick,
        lotSize: c.lot,
      });
      expect(listing?.refPrice).toBe(c.ref);
      const spec = defineInstrument(listing?.instrument ?? ({} as never));
      expect(spec.ok).toBe(true);
      if (spec.ok) expect(priceToTicks(spec.value, c.ref).ok).toBe(true);
    }
  });

  it("lists one-letter tickers (Wormhole's W)", () => {
    expect(
      tokenListing({ base: "W", name: "Wormhole", price: "0.3", marketCap: "0" })?.instrument.symbol,
    ).toBe("WUSDT");
  });

  it("takes the circulating supply from the market cap", () => {
    expect(
      tokenListing({ base: "XYZ", name: "X", price: "0.5", marketCap: "1000000" })?.circulatingSupply,
    ).toBe("2000000");
  });

  it("refuses a price that is not positive and a ticker that is not an asset code", () => {
    expect(tokenListing({ base: "ABC", name: "A", price: "0", marketCap: "0" })).toBeUndefined();
    expect(tokenListing({ base: "ABC", name: "A", price: "-1", marketCap: "0" })).toBeUndefined();
    expect(tokenListing({ base: "ABC", name: "A", price: "0.000000001", marketCap: "0" })).toBeUndefined();
    expect(tokenListing({ base: "a-b", name: "A", price: "1", marketCap: "0" })).toBeUndefined();
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { formatScaled, parseScaled } from "./decimal.ts";
import { DomainCode } from "./errors.ts";
import {
  defineInstrument,
  feeMinor,
  formatNotional,
  type InstrumentSpec,
  lotsToQty,
  meetsMinNotional,
  notionalMinor,
  priceToTicks,
  qtyToLots,
  ticksToPrice,
} from "./instrument.ts";
import { asAsset, asSymbol } from "./units.ts";

function btc(): InstrumentSpec {
  const r = defineInstrument({
    symbol: asSymbol("BTCUSDT"),
    base: asAsset("BTC"),
    quote: asAsset("USDT"),
    tickSize: "0.01",
    lotSize: "0.00001",
    minNotional: "5",
    maxPrice: "1000000",
    maxQty: "9000",
  });
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
}

const codeOf = <T>(r: { ok: true; value: T } | { ok: false; error: { code: string; field: string } }) =>
  r.ok ? null : r.error.code;

describe("decimal strings", () => {
  it("parses by string, exactly", () => {
    expect(parseScaled("65000.10", 2)).toEqual({ scaled: 6500010n, truncated: false });
    expect(parseScaled("0.1", 8)?.scaled).toBe(10000000n);
    expect(parseScaled("1.005", 2)).toEqual({ scaled: 100n, truncated: true });
    expect(parseScaled("1.000", 2)).toEqual({ scaled: 100n, truncated: false });
    expect(parseScaled("-2.5", 1)?.scaled).toBe(-25n);
    for (const bad of ["", ".5", "1.", "1e5", "0x10", " 1", "NaN", "1,5"])
      expect(parseScaled(bad, 2)).toBeNull();
  });

  it("round-trips any scaled integer", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }),
        fc.integer({ min: 0, max: 18 }),
        (v, scale) => {
          expect(parseScaled(formatScaled(v, scale), scale)).toEqual({ scaled: v, truncated: false });
        },
      ),
    );
  });
});

describe("instrument spec", () => {
  it("derives decimals and integer limits", () => {
    const s = btc();
    expect(s.priceDecimals).toBe(2);
    expect(s.qtyDecimals).toBe(5);
    expect(s.maxPriceTicks).toBe(100_000_000);
    expect(s.maxQtyLots).toBe(900_000_000);
    // 5 USDT / (0.01 x 0.00001) = 50,000,000 tick-lot units.
    expect(s.minNotionalUnits).toBe(50_000_000);
  });

  it("rejects specs whose limits are not safe integers", () => {
    const base = { symbol: asSymbol("X"), base: asAsset("A"), quote: asAsset("B"), minNotional: "0" };
    expect(codeOf(defineInstrument({ ...base, tickSize: "0", lotSize: "1" }))).toBe(DomainCode.INVALID_SPEC);
    expect(codeOf(defineInstrument({ ...base, tickSize: "1", lotSize: "abc" }))).toBe(
      DomainCode.INVALID_SPEC,
    );
    expect(
      codeOf(defineInstrument({ ...base, tickSize: "0.00000001", lotSize: "1", maxPrice: "999999999999" })),
    ).toBe(DomainCode.INVALID_SPEC);
  });

  it("converts prices and quantities exactly", () => {
    const s = btc();
    expect(priceToTicks(s, "65000.10")).toEqual({ ok: true, value: 6500010 });
    expect(ticksToPrice(s, 6500010)).toBe("65000.10");
    expect(qtyToLots(s, "0.00125")).toEqual({ ok: true, value: 125 });
    expect(lotsToQty(s, 125)).toBe("0.00125");
  });

  it("reports each validation error as data", () => {
    const s = btc();
    expect(priceToTicks(s, "65,000")).toEqual({
      ok: false,
      error: { code: DomainCode.INVALID_DECIMAL, field: "price", params: {} },
    });
    expect(priceToTicks(s, "65000.105")).toMatchObject({
      ok: false,
      error: { code: DomainCode.PRICE_TOO_PRECISE, field: "price", params: { decimals: "2" } },
    });
    expect(priceToTicks(s, "2000000")).toMatchObject({
      ok: false,
      error: { code: DomainCode.PRICE_OUT_OF_RANGE, params: { min: "0.01", max: "1000000.00" } },
    });
    expect(priceToTicks(s, "0")).toMatchObject({ ok: false, error: { code: DomainCode.PRICE_OUT_OF_RANGE } });
    expect(qtyToLots(s, "0.000001")).toMatchObject({
      ok: false,
      error: { code: DomainCode.QTY_TOO_PRECISE },
    });
    expect(qtyToLots(s, "9000.00001")).toMatchObject({
      ok: false,
      error: { code: DomainCode.QTY_OUT_OF_RANGE },
    });
    expect(qtyToLots(s, "x", "quantity")).toMatchObject({
      ok: false,
      error: { code: DomainCode.INVALID_DECIMAL, field: "quantity" },
    });
    const coarse = defineInstrument({
      symbol: asSymbol("ETHUSDT"),
      base: asAsset("ETH"),
      quote: asAsset("USDT"),
      tickSize: "0.05",
      lotSize: "0.01",
      minNotional: "1",
    });
    if (!coarse.ok) throw new Error("spec");
    expect(priceToTicks(coarse.value, "10.03")).toMatchObject({
      ok: false,
      error: { code: DomainCode.PRICE_NOT_ON_TICK, params: { tickSize: "0.05" } },
    });
    expect(priceToTicks(coarse.value, "10.05")).toEqual({ ok: true, value: 201 });
    expect(ticksToPrice(coarse.value, 201)).toBe("10.05");
    const lot5 = defineInstrument({
      symbol: asSymbol("X"),
      base: asAsset("X"),
      quote: asAsset("Y"),
      tickSize: "1",
      lotSize: "5",
      minNotional: "0",
    });
    if (!lot5.ok) throw new Error("spec");
    expect(qtyToLots(lot5.value, "12")).toMatchObject({
      ok: false,
      error: { code: DomainCode.QTY_NOT_ON_LOT },
    });
  });

  it("computes notional and fees in bigint minor units", () => {
    const s = btc();
    const n = notionalMinor(s, 6500010, 125);
    expect(formatNotional(s, n)).toBe("81.2501250");
    // 0.1 % of 81.2501250 is 0.08125012(5): rounded up to the last minor unit.
    expect(feeMinor(n, 1000)).toBe(812502n);
    expect(feeMinor(0n, 1000)).toBe(0n);
  });

  it("checks min notional without bigint, agreeing with the exact product", () => {
    const s = btc();
    const minMinor = 5n * 10n ** 7n;
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: s.maxPriceTicks }),
        fc.integer({ min: 1, max: s.maxQtyLots }),
        (ticks, lots) => {
          expect(meetsMinNotional(s, ticks, lots)).toBe(notionalMinor(s, ticks, lots) >= minMinor);
        },
      ),
    );
    // 5000.00 x 0.00100 is exactly the 5 USDT minimum; one lot less is under it.
    expect(meetsMinNotional(s, 500000, 100)).toBe(true);
    expect(meetsMinNotional(s, 500000, 99)).toBe(false);
  });
});

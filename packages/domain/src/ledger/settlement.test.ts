import { describe, expect, it } from "vitest";
import { defineInstrument } from "../instrument.ts";
import { asAsset, asSymbol } from "../units.ts";
import { fromMinor, pairUnits, toMinor } from "./assets.ts";
import { availableOf, EntryKind, heldOf, holdEntry, Ledger, mintEntry, SystemAccount } from "./ledger.ts";
import { finishOrder, holdFor, newOrderFunds, planMarketBuy, settleFill } from "./settlement.ts";

const spec = (() => {
  const r = defineInstrument({
    symbol: asSymbol("BTCUSDT"),
    base: asAsset("BTC"),
    quote: asAsset("USDT"),
    tickSize: "0.01",
    lotSize: "0.00001",
    minNotional: "5",
  });
  if (!r.ok) throw new Error(r.error.code);
  return r.value;
})();
const units = (() => {
  const u = pairUnits(spec);
  if (u === null) throw new Error("not carried");
  return u;
})();
const usdt = (s: string) => toMinor("USDT", s) ?? 0n;

describe("settlement", () => {
  it("maps engine units to ledger minor units exactly", () => {
    expect(units.baseFactor).toBe(1000n); // 0.00001 BTC = 1000 satoshi
    expect(units.quoteFactor).toBe(10n); // notional scale 7 -> USDT scale 8
  });

  it("settles a limit buy filled as taker then as maker with exact fees, then releases the rest", () => {
    const ledger = new Ledger();
    ledger.apply(mintEntry(EntryKind.Activate, 1, [{ asset: "USDT", amount: usdt("50000") }]));
    // Buy 0.1 BTC at 60,000.00: holds 6,000 + 0.1 % (6) + 1 minor unit.
    const rates = { makerPpm: 900, takerPpm: 1000 };
    const held = holdFor(spec, units, 0, 6_000_000, 10_000, rates);
    expect(fromMinor("USDT", held)).toBe("6006.00000001");
    expect(ledger.apply(holdEntry(1, "USDT", held))).toBeNull();
    const order = newOrderFunds({ id: 1, accountId: 1, side: 0, units, ...rates, held });
    // 0.04 BTC taken at 59,999.99 from the maker, then 0.06 BTC filled resting at 60,000.00.
    const a = settleFill(
      spec,
      units,
      5_999_999,
      4_000,
      { order, role: "taker" },
      { order: null, role: "maker" },
    );
    expect(fromMinor("USDT", a.quoteAmount)).toBe("2399.99960000");
    expect(fromMinor("USDT", a.buyerFee)).toBe("2.39999960");
    expect(ledger.apply(a.entry)).toBeNull();
    const b = settleFill(
      spec,
      units,
      6_000_000,
      6_000,
      { order, role: "maker" },
      { order: null, role: "taker" },
    );
    expect(fromMinor("USDT", b.buyerFee)).toBe("3.24000000");
    expect(ledger.apply(b.entry)).toBeNull();
    const release = finishOrder(order);
    expect(release).not.toBeNull();
    if (release !== null) expect(ledger.apply(release)).toBeNull();
    expect(fromMinor("BTC", ledger.balance(availableOf(1), "BTC"))).toBe("0.10000000");
    expect(ledger.balance(heldOf(1), "USDT")).toBe(0n);
    // 50,000 - 2,399.9996 - 2.3999996 - 3,600 - 3.24
    expect(fromMinor("USDT", ledger.balance(availableOf(1), "USDT"))).toBe("43994.36040040");
    expect(fromMinor("USDT", ledger.balance(SystemAccount.Fees, "USDT"))).toBe("5.63999960");
    expect(ledger.total("USDT")).toBe(0n);
    expect(ledger.total("BTC")).toBe(0n);
  });

  it("plans a market buy by budget within the budget at the worst price reached", () => {
    const asks: Array<[number, number]> = [
      [6_000_000, 1_000],
      [6_000_100, 1_000],
    ];
    // 0.01 BTC at 60,000 = 600; 900 USDT reaches the second level. The taker fee comes
    // out of the total: 600 + 498 x 0.60001 = 898.80498, + 0.1 % = 899.70378498; one lot
    // more (0.60061 with its fee) would pass 900. The hold: every lot at 60,001 with the fee.
    const rates = { makerPpm: 1000, takerPpm: 1000 };
    const plan = planMarketBuy(spec, units, asks, { quote: usdt("900"), rates });
    const held = holdFor(spec, units, 0, 6_000_100, 1_498, rates);
    expect(plan).toEqual({ capTicks: 6_000_100, lots: 1_498, held });
    expect(held).toBeLessThanOrEqual(usdt("900"));
    expect(planMarketBuy(spec, units, asks, { lots: 1_500 })).toEqual({ capTicks: 6_000_100, lots: 1_500 });
    expect(planMarketBuy(spec, units, [], { lots: 1 })).toBeNull();
  });
});

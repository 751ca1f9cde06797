import { describe, expect, it } from "vitest";
import { checkEntry } from "../ledger/ledger.ts";
import { requirePerp } from "./contracts.ts";
import {
  applyFill,
  crossSummary,
  DerivativesCode,
  entryPrice,
  entryTicks,
  type FillOutcome,
  flatPosition,
  marginRatioPpm,
  type PerpFill,
  type PerpPosition,
  roePpm,
  unrealisedPnl,
} from "./position.ts";
import { usdt } from "./scales.ts";

const btc = requirePerp("BTCUSDT");
const cross = flatPosition({ accountId: 7, symbol: "BTCUSDT", marginMode: "cross", leverage: 20 });
const isolated = flatPosition({ accountId: 7, symbol: "BTCUSDT", marginMode: "isolated", leverage: 20 });

function fill(pos: PerpPosition, f: PerpFill): FillOutcome {
  const r = applyFill(btc, pos, f);
  if (!r.ok) throw new Error(r.error.code);
  if (r.value.entry !== null) expect(checkEntry(r.value.entry)).toBeNull();
  return r.value;
}

describe("position math", () => {
  it("averages the entry on increase and realises PnL on reduce", () => {
    // 0.010 BTC at 60,000 then 0.030 at 64,000: cost 600 + 1,920 = 2,520 for 0.040, entry 63,000.
    const a = fill(cross, { side: "buy", lots: 10, priceTicks: 600_000, feePpm: 0 });
    const b = fill(a.position, { side: "buy", lots: 30, priceTicks: 640_000, feePpm: 0 });
    expect(b.position.cost).toBe(usdt(2_520));
    expect(entryPrice(btc, b.position)).toBe("63000.000");
    expect(entryTicks(btc, b.position)).toBe(630_000);
    expect(entryTicks(btc, cross)).toBe(0);
    // 0.010 at 60,000.0 and 0.020 at 60,000.1: 60,000.0667 rounds to the tick 600,001.
    const d = fill(fill(cross, { side: "buy", lots: 10, priceTicks: 600_000, feePpm: 0 }).position, {
      side: "buy",
      lots: 20,
      priceTicks: 600_001,
      feePpm: 0,
    });
    expect(entryTicks(btc, d.position)).toBe(600_001);
    // Close 0.010 at 65,000: removed 2,520 x 10/40 = 630, PnL 650 - 630 = 20.
    const c = fill(b.position, { side: "sell", lots: 10, priceTicks: 650_000, feePpm: 500 });
    expect(c.realisedPnl).toBe(usdt(20));
    // Taker 0.05 % of 650 = 0.325 USDT.
    expect(c.fee).toBe(32_500_000n);
    expect(c.position.lots).toBe(30);
    expect(c.position.cost).toBe(usdt(1_890));
    const wallet = c.entry?.postings.find((p) => p.account === "user:7:futures");
    expect(wallet?.amount).toBe(usdt(20) - 32_500_000n);
  });

  it("rounds a partial close against the trader and is exact over the position's life", () => {
    // 1 lot at 50,000.0 and 2 at 50,000.1: cost 5,000,000,000 + 10,000,020,000 = 15,000,020,000 minor units.
    const a = fill(cross, { side: "buy", lots: 1, priceTicks: 500_000, feePpm: 0 });
    const b = fill(a.position, { side: "buy", lots: 2, priceTicks: 500_001, feePpm: 0 });
    // Closing a third removes 5,000,006,666.67, rounded up for a long: PnL 5,000,000,000 - 5,000,006,667.
    const c = fill(b.position, { side: "sell", lots: 1, priceTicks: 500_000, feePpm: 0 });
    expect(c.realisedPnl).toBe(-6_667n);
    const d = fill(c.position, { side: "sell", lots: 2, priceTicks: 500_000, feePpm: 0 });
    // Lifetime: sold 15,000,000,000, bought 15,000,020,000: -20,000 in all, whatever the rounding on the way.
    expect(c.realisedPnl + d.realisedPnl).toBe(-20_000n);
    expect(d.position.cost).toBe(0n);
  });

  it("flips a one-way position and keeps reduce-only from increasing or flipping", () => {
    const short = fill(cross, { side: "sell", lots: 10, priceTicks: 500_000, feePpm: 0 }).position;
    const flipped = fill(short, { side: "buy", lots: 30, priceTicks: 490_000, feePpm: 0 });
    expect(flipped.closedLots).toBe(10);
    expect(flipped.openedLots).toBe(20);
    expect(flipped.position.lots).toBe(20);
    expect(flipped.realisedPnl).toBe(usdt(10)); // (50,000 - 49,000) x 0.010
    const ro = fill(short, { side: "buy", lots: 30, priceTicks: 490_000, feePpm: 0, reduceOnly: true });
    expect(ro.closedLots).toBe(10);
    expect(ro.openedLots).toBe(0);
    expect(ro.position.lots).toBe(0);
    const r = applyFill(btc, short, {
      side: "sell",
      lots: 1,
      priceTicks: 490_000,
      feePpm: 0,
      reduceOnly: true,
    });
    expect(r.ok ? null : r.error.code).toBe(DerivativesCode.REDUCE_ONLY_REJECTED);
  });

  it("hedge mode: LONG and SHORT open and close separately; closing more than held is refused", () => {
    const long = { ...cross, positionSide: "LONG" as const };
    const opened = fill(long, { side: "buy", lots: 5, priceTicks: 500_000, feePpm: 0 }).position;
    const r = applyFill(btc, opened, { side: "sell", lots: 6, priceTicks: 500_000, feePpm: 0 });
    expect(r.ok ? null : r.error.code).toBe(DerivativesCode.CLOSE_EXCEEDS_POSITION);
    const short = { ...cross, positionSide: "SHORT" as const };
    const s = fill(short, { side: "sell", lots: 5, priceTicks: 500_000, feePpm: 0 }).position;
    expect(s.lots).toBe(-5);
  });

  it("isolated: sets aside initial margin on open, releases it in proportion on reduce", () => {
    const o = fill(isolated, { side: "buy", lots: 1_000, priceTicks: 500_000, feePpm: 200 });
    expect(o.marginAdded).toBe(usdt(2_500));
    expect(o.fee).toBe(usdt(10)); // 0.02 % of 50,000
    const iso = o.entry?.postings.find((p) => p.account === "user:7:futures:BTCUSDT:BOTH");
    expect(iso?.amount).toBe(usdt(2_500));
    const h = fill(o.position, { side: "sell", lots: 500, priceTicks: 510_000, feePpm: 0 });
    expect(h.marginReleased).toBe(usdt(1_250));
    expect(h.realisedPnl).toBe(usdt(500));
    expect(h.position.isolatedMargin).toBe(usdt(1_250));
  });

  it("refuses leverage above the bracket's maximum", () => {
    const at125 = { ...cross, leverage: 125 };
    expect(applyFill(btc, at125, { side: "buy", lots: 900, priceTicks: 500_000, feePpm: 0 }).ok).toBe(true);
    const r = applyFill(btc, at125, { side: "buy", lots: 1_200, priceTicks: 500_000, feePpm: 0 });
    expect(r.ok ? null : r.error.code).toBe(DerivativesCode.LEVERAGE_TOO_HIGH);
  });

  it("measures PnL, ROE, margin ratio and the cross account", () => {
    // Long 0.1 BTC at 50,000, 10x: entry margin 500; at 51,000 PnL 100, ROE 20 %.
    const p = fill(
      { ...cross, leverage: 10 },
      { side: "buy", lots: 100, priceTicks: 500_000, feePpm: 0 },
    ).position;
    expect(unrealisedPnl(btc, p, 510_000)).toBe(usdt(100));
    expect(roePpm(btc, p, 510_000)).toBe(200_000n);
    expect(marginRatioPpm(usdt(40), usdt(200))).toBe(200_000n);
    expect(marginRatioPpm(usdt(40), 0n)).toBeNull();
    // Wallet 100, mark 49,500: PnL -50, maintenance 4,950 x 0.4 % = 19.8, initial 495.
    const s = crossSummary(usdt(100), [p], new Map([["BTCUSDT", 495_000]]));
    expect(s.marginBalance).toBe(usdt(50));
    expect(s.maintenance).toBe(1_980_000_000n);
    expect(s.available).toBe(usdt(50) - usdt(495));
    expect(s.marginRatioPpm).toBe(396_000n);
    expect(s.breached).toBe(false);
    expect(crossSummary(usdt(100), [p], new Map([["BTCUSDT", 490_000]])).breached).toBe(true);
  });
});

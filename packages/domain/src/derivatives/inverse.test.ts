import { describe, expect, it } from "vitest";
import { requireCoinPerp } from "./coin-contracts.ts";
import { notionalAt } from "./contracts.ts";
import { fundingPayment } from "./funding.ts";
import { liquidateIsolated } from "./liquidation.ts";
import { bankruptcyPrice, liquidationPrice } from "./liquidation-price.ts";
import {
  applyFill,
  entryPrice,
  entryTicks,
  flatPosition,
  type MarginMode,
  type PerpPosition,
  positionMaintenance,
  unrealisedPnl,
} from "./position.ts";

// The worked examples of docs/trading.md ("Coin-margined perpetuals"), BTCUSD: 100 USD a
// contract, tick 0.1 (50,000.0 = 500,000 ticks), amounts in satoshi.
const btc = requireCoinPerp("BTCUSD");
const SAT = 100_000_000n;

function open(
  side: "buy" | "sell",
  lots: number,
  ticks: number,
  mode: MarginMode = "isolated",
  leverage = 20,
): { pos: PerpPosition; added: bigint } {
  const start = flatPosition({ accountId: 1, symbol: "BTCUSD", marginMode: mode, leverage });
  const r = applyFill(btc, start, { side, lots, priceTicks: ticks, feePpm: 0 });
  if (!r.ok) throw new Error(r.error.code);
  return { pos: r.value.position, added: r.value.marginAdded };
}

const leg = (p: PerpPosition) => ({
  side: (p.lots > 0 ? 1 : -1) as 1 | -1,
  lots: Math.abs(p.lots),
  cost: p.cost,
});

describe("inverse contract worked examples", () => {
  it("1. value, initial and maintenance margin in coin", () => {
    const { pos, added } = open("buy", 10, 500_000);
    expect(notionalAt(btc, 10, 500_000)).toBe((2n * SAT) / 100n); // 0.02 BTC
    expect(added).toBe(SAT / 1000n); // 0.001 BTC at 20x
    expect(positionMaintenance(btc, pos, 500_000)).toBe(8_000n); // 0.00008 BTC
    expect(pos.cost).toBe(2_000_000n * btc.costScale);
  });

  it("2. unrealised PnL in coin, rounded against the trader", () => {
    const long = open("buy", 10, 500_000).pos;
    const short = open("sell", 10, 500_000).pos;
    expect(unrealisedPnl(btc, long, 550_000)).toBe(181_818n);
    expect(unrealisedPnl(btc, short, 550_000)).toBe(-181_819n);
    // Realised on close: the same figure, posted in BTC.
    const r = applyFill(btc, long, { side: "sell", lots: 10, priceTicks: 550_000, feePpm: 0 });
    expect(r.ok && r.value.realisedPnl).toBe(181_818n);
    expect(r.ok && r.value.entry?.postings.every((p) => p.asset === "BTC")).toBe(true);
  });

  it("3. isolated long: liquidation and bankruptcy price", () => {
    const { pos, added } = open("buy", 10, 500_000);
    const input = { contract: btc, legs: [leg(pos)], walletBalance: added, markTicks: 500_000 };
    expect(liquidationPrice(input)).toBe(478_096); // 47,809.6
    expect(bankruptcyPrice(input)).toBe(476_191); // 47,619.1
  });

  it("4. isolated short: liquidation price; a 1x short has none", () => {
    const { pos, added } = open("sell", 10, 500_000);
    expect(
      liquidationPrice({ contract: btc, legs: [leg(pos)], walletBalance: added, markTicks: 500_000 }),
    ).toBe(524_210); // 52,421.0
    const one = open("sell", 10, 500_000, "isolated", 1);
    expect(
      liquidationPrice({ contract: btc, legs: [leg(one.pos)], walletBalance: one.added, markTicks: 500_000 }),
    ).toBeNull();
  });

  it("5. cross long with 0.01 BTC in the wallet", () => {
    const { pos } = open("buy", 10, 500_000, "cross");
    expect(
      liquidationPrice({ contract: btc, legs: [leg(pos)], walletBalance: SAT / 100n, markTicks: 500_000 }),
    ).toBe(334_667); // 33,466.7
  });

  it("6. the entry price is the harmonic mean of the fills", () => {
    const first = open("buy", 10, 500_000, "cross").pos;
    const r = applyFill(btc, first, { side: "buy", lots: 10, priceTicks: 600_000, feePpm: 0 });
    if (!r.ok) throw new Error(r.error.code);
    expect(entryPrice(btc, r.value.position, 2)).toBe("54545.45");
    expect(entryTicks(btc, r.value.position)).toBe(545_455);
  });

  it("7. funding in coin", () => {
    const { pos } = open("buy", 10, 500_000);
    expect(fundingPayment(btc, pos, 500_000, 10_000n)).toBe(200n);
    expect(fundingPayment(btc, { ...pos, lots: -10 }, 500_000, 10_000n)).toBe(-200n);
  });

  it("liquidates an isolated position into the coin's insurance fund", () => {
    const { pos } = open("buy", 10, 500_000);
    const out = liquidateIsolated(pos, 478_000);
    expect(out.entry?.postings.every((p) => p.asset === "BTC")).toBe(true);
    // Margin 0.001 + PnL at 47,800.0 (0.02 - 1,000 / 47,800 = -0.00092050...) -> 0.0000795 BTC left.
    expect(out.insurance).toBe(100_000n + unrealisedPnl(btc, pos, 478_000));
    expect(out.insurance > 0n).toBe(true);
  });
});

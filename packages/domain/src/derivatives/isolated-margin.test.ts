import { describe, expect, it } from "vitest";
import { checkEntry } from "../ledger/ledger.ts";
import { isolatedMarginOf } from "./accounts.ts";
import { requirePerp } from "./contracts.ts";
import { adjustIsolatedMargin, maxRemovableMargin } from "./isolated-margin.ts";
import { liquidationPrice } from "./liquidation-price.ts";
import { applyFill, DerivativesCode, flatPosition, type PerpPosition } from "./position.ts";
import { usdt } from "./scales.ts";

const btc = requirePerp("BTCUSDT");

/** Isolated 20x long 0.1 BTC at 50,000: margin 250. */
function long(): PerpPosition {
  const flat = flatPosition({ accountId: 3, symbol: "BTCUSDT", marginMode: "isolated", leverage: 20 });
  const r = applyFill(btc, flat, { side: "buy", lots: 100, priceTicks: 500_000, feePpm: 0 });
  if (!r.ok) throw new Error(r.error.code);
  return r.value.position;
}

const liq = (p: PerpPosition, mark: number) =>
  liquidationPrice({
    contract: btc,
    legs: [{ side: 1, lots: Math.abs(p.lots), cost: p.cost }],
    walletBalance: p.isolatedMargin,
    markTicks: mark,
  });

describe("isolated margin add and reduce", () => {
  it("adds wallet money to the position and moves the liquidation price away", () => {
    const p = long();
    expect(p.isolatedMargin).toBe(usdt(250));
    const r = adjustIsolatedMargin(btc, p, "add", usdt(150), 500_000);
    if (!r.ok) throw new Error(r.error.code);
    expect(r.value.position.isolatedMargin).toBe(usdt(400));
    expect(checkEntry(r.value.entry)).toBeNull();
    expect(r.value.entry.postings).toContainEqual({
      account: isolatedMarginOf(3, "BTCUSDT", "BOTH"),
      asset: "USDT",
      amount: usdt(150),
    });
    // 47,690.8 with 250; (400 - 5,000) / (0.004 - 1) x 10 ticks = 46,184.7... -> up to 46,184.8.
    expect(liq(p, 500_000)).toBe(476_908);
    expect(liq(r.value.position, 500_000)).toBe(461_848);
  });

  it("lets at most the margin above the initial margin at the mark, after a loss, leave", () => {
    const added = adjustIsolatedMargin(btc, long(), "add", usdt(150), 500_000);
    if (!added.ok) throw new Error(added.error.code);
    const p = added.value.position;
    // Mark 49,000: loss 100, initial margin 4,900 / 20 = 245: 400 - 100 - 245 = 55.
    expect(maxRemovableMargin(btc, p, 490_000)).toBe(usdt(55));
    // Mark 51,000: the profit does not count; initial margin 255: 400 - 255 = 145.
    expect(maxRemovableMargin(btc, p, 510_000)).toBe(usdt(145));
    // Mark 40,000: the loss eats everything above the initial margin.
    expect(maxRemovableMargin(btc, p, 400_000)).toBe(0n);
    const over = adjustIsolatedMargin(btc, p, "reduce", usdt(56), 490_000);
    expect(over).toEqual({
      ok: false,
      error: { code: DerivativesCode.MARGIN_REDUCE_EXCEEDS, params: { max: usdt(55).toString() } },
    });
    const ok = adjustIsolatedMargin(btc, p, "reduce", usdt(55), 490_000);
    if (!ok.ok) throw new Error(ok.error.code);
    expect(ok.value.position.isolatedMargin).toBe(usdt(345));
    expect(checkEntry(ok.value.entry)).toBeNull();
  });

  it("refuses cross and flat positions and non-positive amounts", () => {
    const cross = { ...long(), marginMode: "cross" as const, isolatedMargin: 0n };
    expect(adjustIsolatedMargin(btc, cross, "add", usdt(1), 500_000)).toMatchObject({
      ok: false,
      error: { code: DerivativesCode.NOT_ISOLATED },
    });
    const flat = { ...long(), lots: 0, cost: 0n, isolatedMargin: 0n };
    expect(adjustIsolatedMargin(btc, flat, "add", usdt(1), 500_000).ok).toBe(false);
    expect(adjustIsolatedMargin(btc, long(), "add", 0n, 500_000).ok).toBe(false);
    expect(maxRemovableMargin(btc, cross, 500_000)).toBe(0n);
  });
});

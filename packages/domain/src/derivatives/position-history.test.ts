import { describe, expect, it } from "vitest";
import { closedPositions, type HistoryFill } from "./position-history.ts";

const fill = (
  side: "BUY" | "SELL",
  lots: number,
  ticks: number,
  time: number,
  more: Partial<HistoryFill> = {},
): HistoryFill => ({
  symbol: "BTCUSDT",
  positionSide: "BOTH",
  side,
  lots,
  ticks,
  realisedPnl: 0n,
  fee: 1n,
  liquidation: false,
  time,
  ...more,
});

describe("closedPositions", () => {
  it("opens, adds, closes in parts; still-open positions are not history", () => {
    const out = closedPositions([
      fill("BUY", 2, 100, 1),
      fill("BUY", 2, 110, 2),
      fill("SELL", 1, 120, 3, { realisedPnl: 15n }),
      fill("SELL", 3, 130, 4, { realisedPnl: 65n }),
      fill("SELL", 1, 130, 5),
    ]);
    expect(out).toEqual([
      {
        symbol: "BTCUSDT",
        positionSide: "BOTH",
        direction: "LONG",
        openTime: 1,
        closeTime: 4,
        maxLots: 4,
        openTicksLots: 420n,
        openLots: 4,
        closeTicksLots: 510n,
        closeLots: 4,
        // 2/100 + 2/110 and 1/120 + 3/130: the coin-M averages are 4 over these (harmonic means).
        openPerTick: { num: 21n, den: 550n },
        closePerTick: { num: 49n, den: 1560n },
        realisedPnl: 80n,
        fees: 4n,
        liquidated: false,
      },
    ]);
  });

  it("a one-way fill through zero closes the long and opens a short", () => {
    const out = closedPositions([
      fill("BUY", 1, 100, 1),
      fill("SELL", 3, 90, 2, { realisedPnl: -10n }),
      fill("BUY", 2, 80, 3, { liquidation: true }),
    ]);
    expect(
      out.map((p) => [p.direction, p.openLots, p.closeLots, p.openTime, p.closeTime, p.liquidated]),
    ).toEqual([
      ["SHORT", 2, 2, 2, 3, true],
      ["LONG", 1, 1, 1, 2, false],
    ]);
  });

  it("keeps hedge-mode sides apart", () => {
    const out = closedPositions([
      fill("SELL", 1, 100, 1, { positionSide: "SHORT" }),
      fill("BUY", 1, 100, 2, { positionSide: "LONG" }),
      fill("BUY", 1, 90, 3, { positionSide: "SHORT" }),
    ]);
    expect(out.map((p) => [p.positionSide, p.direction])).toEqual([["SHORT", "SHORT"]]);
  });
});

import type { DepthLevel } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { bookRows, estimateMarketFill, groupingSteps, groupLevels } from "./book-math.ts";

const asks: DepthLevel[] = [
  ["100.00", "1"],
  ["100.50", "2"],
  ["102.00", "3"],
];
const bids: DepthLevel[] = [
  ["99.99", "1"],
  ["99.91", "2"],
  ["98.00", "1.5"],
];

describe("order book math", () => {
  it("offers the tick and its multiples as grouping steps", () => {
    expect(groupingSteps("0.01")).toEqual(["0.01", "0.1", "1", "10"]);
  });

  it("groups bids down and asks up, summing quantities, best first", () => {
    expect(groupLevels(bids, "1", "bid")).toEqual([
      ["99", "3"],
      ["98", "1.5"],
    ]);
    expect(groupLevels(asks, "1", "ask")).toEqual([
      ["100", "1"],
      ["101", "2"],
      ["102", "3"],
    ]);
  });

  it("adds running totals and depth ratios", () => {
    const rows = bookRows(asks, 2);
    expect(rows.map((r) => [r.total, r.cumulative])).toEqual([
      ["100", "1"],
      ["201", "3"],
    ]);
    expect(rows[1]?.depth).toBe(1);
    expect(rows[0]?.depth).toBeCloseTo(1 / 3);
  });

  it("estimates a market fill by quantity and by quote budget", () => {
    const byQty = estimateMarketFill(asks, { quantity: "2" }, 2);
    expect(byQty).toMatchObject({ filled: "2", quote: "200.5", average: "100.25", exhausted: false });
    expect(byQty.slippagePercent).toBe("0.25");
    const byQuote = estimateMarketFill(asks, { quote: "301" }, 2);
    expect(byQuote).toMatchObject({ filled: "3", quote: "301", exhausted: false });
    const deep = estimateMarketFill(asks, { quantity: "10" }, 2);
    expect(deep.exhausted).toBe(true);
    expect(deep.filled).toBe("6");
    const sell = estimateMarketFill(bids, { quantity: "4" }, 2);
    expect(sell.slippagePercent).toBe("0.53");
  });
});

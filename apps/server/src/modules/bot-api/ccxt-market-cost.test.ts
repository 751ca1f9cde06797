import { type PaperFees, type PaperOrder, PaperPath } from "@meridian/contracts";
import { fromMinor, parseScaled, toMinor } from "@meridian/domain";
import { describe, expect, it } from "vitest";
import { useBotApiTrader } from "../../test/bot-api.ts";

/**
 * Issue 30: a market buy by cost (ccxt `createMarketBuyOrderWithCost`, Bitget's market
 * buy `size` in quote) spends the cost as far as the lot size allows. The market clock is
 * paused (no price moves), so the ask ladder read before the order is the one it meets;
 * the test walks that ladder itself in exact integers and checks the order against it.
 */
const bot = useBotApiTrader({ rateScale: 5 });

/** A decimal string at `scale` digits as an integer (USDT minor units at 8, BTC at 8). */
function scaled(text: string, scale: number): bigint {
  const p = parseScaled(text, scale);
  if (p === null) throw new Error(`not a decimal: ${text}`);
  return p.scaled;
}
function usdt(text: string): bigint {
  const minor = toMinor("USDT", text);
  if (minor === null) throw new Error(`not a USDT amount: ${text}`);
  return minor;
}
/** q + its taker fee rounded up: what buying quote q costs (the fee is on the whole notional). */
const withFee = (q: bigint, ppm: bigint) => q + (q * ppm + 999_999n) / 1_000_000n;

describe("market buy by cost", () => {
  it("spends the cost to within one lot of the book, fee included", async () => {
    // The maker's first levels hold a few BTC each: about 550,000 USDT reach the third.
    const topUp = await bot.server.web(bot.cookie, "POST", PaperPath.TOPUP, {
      asset: "USDT",
      amount: "950000",
    });
    expect(topUp.code).toBe("00000");
    const fees = (await bot.server.web<PaperFees>(bot.cookie, "GET", PaperPath.FEES)).data;
    const ppm = BigInt(fees.current.takerPpm);
    const book = (await bot.ex.publicSpotGetV2SpotMarketOrderbook({ symbol: "BTCUSDT", limit: "150" })) as {
      data: { asks: Array<[string, string]> };
    };
    // Each level's quote per 0.00001 BTC lot (USDT minor units) and its lots.
    const LOT = 1000n; // 0.00001 BTC in satoshi
    const asks = book.data.asks.map(([price, size]) => ({
      perLot: (scaled(price, 8) * LOT) / 100_000_000n,
      lots: scaled(size, 8) / LOT,
    }));
    expect(asks.length).toBeGreaterThan(3);
    const [a1, a2, a3] = asks;
    if (a1 === undefined || a2 === undefined || a3 === undefined) throw new Error("thin book");
    // A cost that reaches the third level: the first two whole, half the third, in cents.
    const reach = a1.perLot * a1.lots + a2.perLot * a2.lots + (a3.perLot * a3.lots) / 2n;
    const cost = (withFee(reach, ppm) / 1_000_000n) * 1_000_000n;

    // The walk, cheapest first: every lot whose notional with the fee still fits the cost.
    let spent = 0n;
    let lots = 0n;
    let next: bigint | undefined;
    for (const a of asks) {
      let take = a.lots;
      while (take > 0n && withFee(spent + a.perLot * take, ppm) > cost)
        take = take > 1000n && withFee(spent + a.perLot * (take / 2n), ppm) > cost ? take / 2n : take - 1n;
      spent += a.perLot * take;
      lots += take;
      if (take < a.lots) {
        next = a.perLot;
        break;
      }
    }
    expect(next).toBeDefined();

    const placed = await bot.ex.createMarketBuyOrderWithCost("BTC/USDT", Number(fromMinor("USDT", cost)));
    const history = await bot.server.web<PaperOrder[]>(
      bot.cookie,
      "GET",
      `${PaperPath.ORDER_HISTORY}?symbol=BTCUSDT`,
    );
    const order = history.data.find((o) => String(o.orderId) === placed.id);
    if (order === undefined) throw new Error("the order is not in the history");
    expect(order).toMatchObject({
      type: "MARKET",
      side: "BUY",
      status: "FILLED",
    });
    expect(usdt(order.quoteQty ?? "x")).toBe(cost);
    const quote = usdt(order.cummulativeQuoteQty);
    const fee = usdt(order.fee);
    expect(scaled(order.executedQty, 8)).toBe(lots * LOT);
    expect(quote).toBe(spent);
    expect(fee).toBe(withFee(spent, ppm) - spent);
    // Spent, fee included, within the cost; what is left buys no further lot.
    const left = cost - quote - fee;
    expect(left).toBeGreaterThanOrEqual(0n);
    expect(left).toBeLessThan(withFee(next ?? 0n, ppm) + 1n);
    // ccxt reads the same figures.
    const seen = await bot.ex.fetchOrder(String(placed.id), "BTC/USDT");
    expect(seen.cost).toBe(Number(order.cummulativeQuoteQty));
    expect(seen.filled).toBe(Number(order.executedQty));
  });
});

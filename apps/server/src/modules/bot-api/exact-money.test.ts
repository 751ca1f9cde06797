import type { FuturesOrder, PaperOrder } from "@meridian/contracts";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { pct, presentMixOrder } from "./mix.ts";
import { presentSpotOrder } from "./spot.ts";

/**
 * The bot API prints money from the services' decimal strings without a float in
 * between: for random amounts (up to 18 significant digits, where doubles already round)
 * each printed figure equals the one computed here in bigints.
 */
const decimal = (maxScale: number) =>
  fc
    .tuple(fc.bigInt({ min: 1n, max: 10n ** 17n }), fc.integer({ min: 0, max: maxScale }))
    .map(([v, s]) => ({ text: scaledText(v, s), value: v, scale: s }));

function scaledText(v: bigint, s: number): string {
  const digits = v.toString().padStart(s + 1, "0");
  return s === 0 ? digits : `${digits.slice(0, -s)}.${digits.slice(-s)}`;
}

/** a / b rounded half up to `scale` digits, with exactly `scale` digits. */
function quotient(a: { value: bigint; scale: number }, b: { value: bigint; scale: number }, scale: number) {
  // (a.v / 10^a.s) / (b.v / 10^b.s) * 10^scale
  const num = a.value * 10n ** BigInt(scale + b.scale);
  const den = b.value * 10n ** BigInt(a.scale);
  return scaledText((2n * num + den) / (2n * den), scale);
}

const ctx = { dual: false, settings: () => ({ leverage: 10, marginMode: "cross" as const }) };

describe("exact money in the bot API's output", () => {
  it("spot: the average price and the fee are the exact figures", () => {
    fc.assert(
      fc.property(
        decimal(8),
        decimal(8),
        decimal(10),
        fc.integer({ min: 0, max: 8 }),
        (qty, quote, fee, pd) => {
          const order = {
            orderId: 1,
            clientOrderId: "#1",
            symbol: "BTCUSDT",
            side: "BUY",
            type: "LIMIT",
            timeInForce: "GTC",
            price: "1",
            stopPrice: null,
            origQty: qty.text,
            quoteQty: null,
            executedQty: qty.text,
            cummulativeQuoteQty: quote.text,
            fee: fee.text,
            feeAsset: "USDT",
            status: "FILLED",
            triggered: false,
            createdAt: 1,
            updatedAt: 2,
          } satisfies PaperOrder;
          const out = presentSpotOrder(order, "u", pd);
          expect(out.priceAvg).toBe(quotient(quote, qty, pd));
          expect(out.quoteVolume).toBe(quote.text);
          // The fee as a JSON number literal, digit for digit.
          const text = String(out.feeDetail);
          expect(text).toContain(`"totalFee":-${fee.text}}`);
          expect(text).toContain(`"r":-${fee.text},"t":-${fee.text},`);
        },
      ),
    );
  });

  it("futures: the quote volume is filled x average, exactly", () => {
    fc.assert(
      fc.property(decimal(3), decimal(6), (qty, avg) => {
        const order = {
          id: 1,
          symbol: "BTCUSDT",
          family: "usdt",
          side: "BUY",
          positionSide: "BOTH",
          type: "MARKET",
          price: null,
          stopPrice: null,
          quantity: qty.text,
          executedQty: qty.text,
          avgPrice: avg.text,
          reduceOnly: false,
          closePosition: false,
          clientOrderId: "#1",
          status: "FILLED",
          reason: null,
          time: 1,
          updateTime: 2,
        } satisfies FuturesOrder;
        const out = presentMixOrder(order, ctx);
        const product = scaledText(qty.value * avg.value, qty.scale + avg.scale);
        const trimmed = product.includes(".") ? product.replace(/0+$/, "").replace(/\.$/, "") : product;
        expect(out.quoteVolume).toBe(trimmed);
      }),
    );
  });

  it("a percent as a ratio rounds like toFixed(6) should", () => {
    fc.assert(
      fc.property(decimal(4), (p) => {
        expect(pct(p.text)).toBe(quotient(p, { value: 100n, scale: 0 }, 6));
      }),
    );
  });
});

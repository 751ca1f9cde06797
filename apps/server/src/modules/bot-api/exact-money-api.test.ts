import { add, availableOf, fromMinor, heldOf, isZero, sub } from "@meridian/domain";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BotApiServer, bitgetClient, startBotApiServer } from "../../test/bot-api.ts";

/**
 * Exact money end to end: random spot orders go through the bot API on a real server
 * (ccxt signs them; its raw calls hand back the server's strings untouched), and every
 * money string the API prints about them equals the ledger's exact value: the balances
 * (`available`, `frozen`) are the ledger's minor units formatted, and the fills' sizes,
 * quote amounts and fees add up, digit for digit, to how the ledger's balances moved.
 */
type Client = Awaited<ReturnType<typeof bitgetClient>>;
type Raw = { data: unknown };
interface Fill {
  orderId: string;
  side: string;
  size: string;
  amount: string;
  feeDetail: { feeCoin: string; totalFee: string };
}

let server: BotApiServer;
let ex: Client;
let account: number;

beforeAll(async () => {
  server = await startBotApiServer({ liveMarket: true, rateScale: 20 });
  const cookie = await server.newUser();
  const key = await server.createKey(cookie);
  ex = await bitgetClient(server.base, key);
  const userId = key.owner.id;
  account = (await server.scope.ledger.local.accountFor(userId)).id;
}, 60_000);

afterAll(async () => {
  await ex?.close();
  await server?.close();
});

const call = (name: string, params: Record<string, unknown>) =>
  (ex as unknown as Record<string, (p: Record<string, unknown>) => Promise<Raw>>)[name]?.(
    params,
  ) as Promise<Raw>;

/** The ledger's spot balance of `asset` (available and held), exact, as decimal text. */
async function ledger(asset: string): Promise<{ available: string; held: string }> {
  const l = server.scope.ledger.local;
  return {
    available: fromMinor(asset, l.ledgerBalance(availableOf(account), asset)),
    held: fromMinor(asset, l.ledgerBalance(heldOf(account), asset)),
  };
}

const order = fc.oneof(
  // A market buy spends quote (Bitget: `size` is the quote), 10 to 300 USDT to the cent.
  fc.record({ side: fc.constant("buy"), size: fc.integer({ min: 1_000, max: 30_000 }).map((c) => cents(c)) }),
  // A market sell of 0.00020 to 0.00400 BTC.
  fc.record({
    side: fc.constant("sell"),
    size: fc.integer({ min: 20, max: 400 }).map((l) => `0.${String(l).padStart(5, "0")}`),
  }),
);
function cents(c: number): string {
  return `${Math.floor(c / 100)}.${String(c % 100).padStart(2, "0")}`;
}

describe("exact money through the bot API", () => {
  it("fills and balances the API prints equal the ledger's exact values", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(order, { minLength: 1, maxLength: 4 }), async (orders) => {
        const before = { BTC: await ledger("BTC"), USDT: await ledger("USDT") };
        const ids: string[] = [];
        for (const o of orders) {
          const r = await call("privateSpotPostV2SpotTradePlaceOrder", {
            symbol: "BTCUSDT",
            side: o.side,
            orderType: "market",
            force: "gtc",
            size: o.size,
          });
          ids.push((r.data as { orderId: string }).orderId);
        }
        const fills = (
          (await call("privateSpotGetV2SpotTradeFills", { symbol: "BTCUSDT", limit: "100" })).data as Fill[]
        ).filter((f) => ids.includes(f.orderId));
        let btc = add(before.BTC.available, before.BTC.held);
        let usdt = add(before.USDT.available, before.USDT.held);
        for (const f of fills) {
          btc = f.side === "buy" ? add(btc, f.size) : sub(btc, f.size);
          usdt = f.side === "buy" ? sub(usdt, f.amount) : add(usdt, f.amount);
          // Fees print negative, on the coin charged.
          if (f.feeDetail.feeCoin === "BTC") btc = add(btc, f.feeDetail.totalFee);
          else usdt = add(usdt, f.feeDetail.totalFee);
        }
        const after = { BTC: await ledger("BTC"), USDT: await ledger("USDT") };
        expect(sub(add(after.BTC.available, after.BTC.held), btc)).toBe("0");
        expect(sub(add(after.USDT.available, after.USDT.held), usdt)).toBe("0");
        // Each order's volumes are its fills' sums.
        for (const id of ids) {
          const [info] = (await call("privateSpotGetV2SpotTradeOrderInfo", { orderId: id })).data as {
            baseVolume: string;
            quoteVolume: string;
          }[];
          const mine = fills.filter((f) => f.orderId === id);
          const base = mine.reduce((s, f) => add(s, f.size), "0");
          const quote = mine.reduce((s, f) => add(s, f.amount), "0");
          expect(isZero(sub(info?.baseVolume ?? "NaN", base))).toBe(true);
          expect(isZero(sub(info?.quoteVolume ?? "NaN", quote))).toBe(true);
        }
        // The balances as printed: the ledger's own minor units, formatted.
        const assets = (await call("privateSpotGetV2SpotAccountAssets", {})).data as {
          coin: string;
          available: string;
          frozen: string;
        }[];
        for (const coin of ["BTC", "USDT"] as const) {
          const a = assets.find((x) => x.coin === coin);
          expect(isZero(sub(a?.available ?? "NaN", after[coin].available))).toBe(true);
          expect(isZero(sub(a?.frozen ?? "NaN", after[coin].held))).toBe(true);
        }
      }),
      { numRuns: 6 },
    );
  }, 120_000);
});

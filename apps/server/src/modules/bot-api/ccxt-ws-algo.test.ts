import type { FuturesOrder, PaperOrder } from "@meridian/contracts";
import { expect, it } from "vitest";
import { subscribed, useBotApiTrader } from "../../test/bot-api.ts";

/**
 * `orders-algo` through ccxt.pro (`watchOrders(symbol, …, {trigger: true})`): spot plan
 * orders and USDT-M plan orders arrive there, not on `orders`, and match the web's lists.
 */
const bot = useBotApiTrader({ liveMarket: true });

it("pushes a spot plan order on orders-algo only", async () => {
  const S = "BTC/USDT";
  const last = (await bot.ex.fetchTicker(S)).last ?? 0;
  const acked = Promise.all([subscribed(bot.ex, "orders"), subscribed(bot.ex, "orders-algo")]);
  const plain = bot.ex.watchOrders(S);
  const algo = bot.ex.watchOrders(S, undefined, undefined, { trigger: true });
  await acked;
  const trigger = Math.round(last * 0.8);
  const placed = await bot.ex.createOrder(S, "limit", "sell", 0.001, trigger - 10, { triggerPrice: trigger });
  const seen = await algo;
  expect(seen.find((o) => o.id === placed.id)).toMatchObject({ triggerPrice: trigger, side: "sell" });
  const web = await bot.server.web<PaperOrder[]>(bot.cookie, "GET", "/v1/paper/orders/open");
  expect(web.data.find((o) => String(o.orderId) === placed.id)?.stopPrice).toBe(`${trigger}.00`);
  // A normal order resolves `orders`; it must not carry the plan.
  const normal = await bot.ex.createOrder(S, "limit", "buy", 0.001, Math.round(last * 0.5));
  const plainSeen = await plain;
  expect(plainSeen.map((o) => o.id)).toContain(normal.id);
  expect(plainSeen.map((o) => o.id)).not.toContain(placed.id);
  await bot.ex.cancelOrder(placed.id ?? "", S, { trigger: true });
  await bot.ex.cancelOrder(normal.id ?? "", S);
});

it("pushes a USDT-M plan order on orders-algo", async () => {
  const S = "BTC/USDT:USDT";
  await bot.ex.transfer("USDT", 1000, "spot", "swap");
  const mark = (await bot.ex.fetchTicker(S)).markPrice ?? 0;
  const acked = subscribed(bot.ex, "orders-algo");
  const algo = bot.ex.watchOrders(S, undefined, undefined, { trigger: true });
  await acked;
  const trigger = Math.round(mark * 1.2);
  const placed = await bot.ex.createOrder(S, "market", "buy", 0.001, undefined, { triggerPrice: trigger });
  const seen = await algo;
  expect(seen.find((o) => o.id === placed.id)).toMatchObject({ triggerPrice: trigger, side: "buy" });
  const web = await bot.server.web<FuturesOrder[]>(bot.cookie, "GET", "/v1/paper/futures/orders/open");
  expect(web.data.map((o) => String(o.id))).toContain(placed.id);
  await bot.ex.cancelOrder(placed.id ?? "", S, { trigger: true });
});

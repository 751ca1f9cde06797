import type { FuturesOrder, PaperOrder } from "@meridian/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BotApiServer, bitgetClient, startBotApiServer, subscribed } from "../../test/bot-api.ts";

/**
 * `orders-algo` through ccxt.pro (`watchOrders(symbol, …, {trigger: true})`): spot plan
 * orders and USDT-M plan orders arrive there, not on `orders`, and match the web's lists.
 */
let server: BotApiServer;
let cookie: string;
let ex: Awaited<ReturnType<typeof bitgetClient>>;

beforeAll(async () => {
  server = await startBotApiServer({ liveMarket: true });
  cookie = await server.newUser();
  ex = await bitgetClient(server.base, await server.createKey(cookie));
}, 60_000);

afterAll(async () => {
  await ex?.close();
  await server?.close();
});

it("pushes a spot plan order on orders-algo only", async () => {
  const S = "BTC/USDT";
  const last = (await ex.fetchTicker(S)).last ?? 0;
  const acked = Promise.all([subscribed(ex, "orders"), subscribed(ex, "orders-algo")]);
  const plain = ex.watchOrders(S);
  const algo = ex.watchOrders(S, undefined, undefined, { trigger: true });
  await acked;
  const trigger = Math.round(last * 0.8);
  const placed = await ex.createOrder(S, "limit", "sell", 0.001, trigger - 10, { triggerPrice: trigger });
  const seen = await algo;
  expect(seen.find((o) => o.id === placed.id)).toMatchObject({ triggerPrice: trigger, side: "sell" });
  const web = await server.web<PaperOrder[]>(cookie, "GET", "/v1/paper/orders/open");
  expect(web.data.find((o) => String(o.orderId) === placed.id)?.stopPrice).toBe(`${trigger}.00`);
  // A normal order resolves `orders`; it must not carry the plan.
  const normal = await ex.createOrder(S, "limit", "buy", 0.001, Math.round(last * 0.5));
  const plainSeen = await plain;
  expect(plainSeen.map((o) => o.id)).toContain(normal.id);
  expect(plainSeen.map((o) => o.id)).not.toContain(placed.id);
  await ex.cancelOrder(placed.id ?? "", S, { trigger: true });
  await ex.cancelOrder(normal.id ?? "", S);
});

it("pushes a USDT-M plan order on orders-algo", async () => {
  const S = "BTC/USDT:USDT";
  await ex.transfer("USDT", 1000, "spot", "swap");
  const mark = (await ex.fetchTicker(S)).markPrice ?? 0;
  const acked = subscribed(ex, "orders-algo");
  const algo = ex.watchOrders(S, undefined, undefined, { trigger: true });
  await acked;
  const trigger = Math.round(mark * 1.2);
  const placed = await ex.createOrder(S, "market", "buy", 0.001, undefined, { triggerPrice: trigger });
  const seen = await algo;
  expect(seen.find((o) => o.id === placed.id)).toMatchObject({ triggerPrice: trigger, side: "buy" });
  const web = await server.web<FuturesOrder[]>(cookie, "GET", "/v1/paper/futures/orders/open");
  expect(web.data.map((o) => String(o.id))).toContain(placed.id);
  await ex.cancelOrder(placed.id ?? "", S, { trigger: true });
});

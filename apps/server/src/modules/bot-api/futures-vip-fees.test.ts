import { afterAll, beforeAll, expect, it } from "vitest";
import { type BotApiServer, bitgetClient, startBotApiServer } from "../../test/bot-api.ts";

/**
 * USDT-M fees follow the VIP level (docs/subaccounts-vip.md): a taker fill pays its tier's
 * futures taker rate, 0.05 % at VIP 0 and 0.027 % at VIP 5, from the next order on.
 */
let server: BotApiServer;

beforeAll(async () => {
  server = await startBotApiServer({ liveMarket: true });
}, 60_000);

afterAll(async () => {
  await server?.close();
});

it("charges each fill its VIP tier's futures taker rate", async () => {
  const cookie = await server.newUser();
  const key = await server.createKey(cookie);
  const ex = await bitgetClient(server.base, key);
  const S = "BTC/USDT:USDT";
  try {
    await ex.transfer("USDT", 5000, "spot", "swap");
    const rateOf = async () => {
      const order = await ex.createOrder(S, "market", "buy", 0.01);
      const fills = (await ex.fetchMyTrades(S)).filter((t) => t.order === order.id);
      expect(fills.length).toBeGreaterThan(0);
      const cost = fills.reduce((s, t) => s + (t.cost ?? 0), 0);
      const fee = fills.reduce((s, t) => s + (t.fee?.cost ?? 0), 0);
      await ex.createOrder(S, "market", "sell", 0.01, undefined, { reduceOnly: true });
      return fee / cost;
    };
    expect(await rateOf()).toBeCloseTo(0.0005, 6);

    await server.accounts.repo.setVipLevel(key.owner.id, 5, Date.now());
    await server.scope.vip.loadLevels();
    expect(await rateOf()).toBeCloseTo(0.00027, 6);
  } finally {
    await ex.close();
  }
});

import type { FuturesPosition, PaperOrder } from "@meridian/contracts";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runBot } from "../../../../../examples/bitget-grid-bot.ts";
import { type BotApiServer, startBotApiServer } from "../../test/bot-api.ts";

let server: BotApiServer;
beforeAll(async () => {
  server = await startBotApiServer();
}, 60_000);
afterAll(async () => {
  await server?.close();
});

it("the example bot places its grid and its futures position with TP/SL, as the web API shows", async () => {
  const cookie = await server.newUser();
  const key = await server.createKey(cookie);
  const lines: string[] = [];
  const result = await runBot({
    baseUrl: server.base,
    apiKey: key.apiKey,
    secret: key.secret ?? "",
    passphrase: key.passphrase,
    log: (l) => lines.push(l),
  });
  expect(result.gridOrderIds).toHaveLength(6);
  const open = (await server.web<PaperOrder[]>(cookie, "GET", "/v1/paper/orders/open")).data;
  expect(open.map((o) => String(o.orderId)).sort()).toEqual([...result.gridOrderIds].sort());
  expect(open.filter((o) => o.side === "BUY")).toHaveLength(3);
  const positions = (await server.web<FuturesPosition[]>(cookie, "GET", "/v1/paper/futures/positions")).data;
  expect(positions.filter((p) => Number(p.quantity) !== 0)).toMatchObject([
    { symbol: "BTCUSDT", quantity: "0.010", leverage: 5 },
  ]);
  expect(result.position).toMatchObject({ side: "long", contracts: 0.01 });
  expect(lines.at(-1)).toMatch(/^futures long 0.01 BTC at /);
}, 60_000);

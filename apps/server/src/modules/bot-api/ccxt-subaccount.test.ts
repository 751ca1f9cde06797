import type { ApiKeyView, SubAccountView, SubListResult } from "@meridian/contracts";
import ccxt from "ccxt";
import { afterAll, beforeAll, expect, it } from "vitest";
import { type BotApiServer, bitgetClient, startBotApiServer } from "../../test/bot-api.ts";

/**
 * Sub-account keys: a master makes a key for one of its subs; ccxt's `bitget` with that
 * key trades the sub's paper balances, which the master's overview (`/v1/user/sub/list`)
 * shows, and the master's own balances stay as they were.
 */
let server: BotApiServer;
let master: string;
let sub: SubAccountView;

beforeAll(async () => {
  server = await startBotApiServer({ liveMarket: true });
  master = await server.newUser();
  const made = await server.web<SubAccountView>(master, "POST", "/v1/user/sub/create", {
    name: `bot${Date.now() % 1_000_000}`,
    label: "grid bot",
  });
  if (made.code !== "00000") throw new Error(`sub create: ${made.code} ${made.msg}`);
  sub = made.data;
  const moved = await server.web(master, "POST", "/v1/user/sub/transfer", {
    subUserId: sub.userId,
    direction: "TO_SUB",
    wallet: "SPOT",
    asset: "USDT",
    amount: "1000",
  });
  if (moved.code !== "00000") throw new Error(`sub transfer: ${moved.code} ${moved.msg}`);
}, 60_000);

afterAll(async () => {
  await server?.close();
});

const subView = async () => {
  const list = await server.web<SubListResult>(master, "GET", "/v1/user/sub/list");
  const found = list.data.subs.find((s) => s.userId === sub.userId);
  if (found === undefined) throw new Error("sub not listed");
  return found;
};
const spot = (v: SubAccountView, asset: string) => v.wallets.SPOT?.find((b) => b.asset === asset);

it("a key made for a sub trades the sub's balances, not the master's", async () => {
  const key = await server.createKey(master, { subUid: sub.userId });
  expect(key.owner).toEqual({ type: "sub", id: sub.userId });
  const ex = await bitgetClient(server.base, key);
  try {
    const bal = await ex.fetchBalance();
    expect(bal.USDT?.free).toBe(1000);
    const masterBefore = (
      await server.web<{ asset: string; available: string }[]>(master, "GET", "/v1/paper/balances")
    ).data.find((b) => b.asset === "USDT")?.available;

    const t = await ex.fetchTicker("BTC/USDT");
    const price = Math.round((t.last ?? 0) * 0.5);
    const order = await ex.createOrder("BTC/USDT", "limit", "buy", 0.002, price);
    const view = await subView();
    expect(Number(spot(view, "USDT")?.locked)).toBeCloseTo(price * 0.002 * 1.001, 2);
    expect(Number(spot(view, "USDT")?.amount)).toBeCloseTo(1000 - price * 0.002 * 1.001, 2);
    await ex.cancelOrder(order.id ?? "", "BTC/USDT");
    expect(Number(spot(await subView(), "USDT")?.locked)).toBe(0);

    const masterAfter = (
      await server.web<{ asset: string; available: string }[]>(master, "GET", "/v1/paper/balances")
    ).data.find((b) => b.asset === "USDT")?.available;
    expect(masterAfter).toBe(masterBefore);

    // The master lists (and manages) the sub's key beside its own.
    const keys = await server.web<ApiKeyView[]>(master, "GET", "/v1/user/api-keys");
    expect(keys.data.find((k) => k.apiKey === key.apiKey)?.owner.type).toBe("sub");

    // A frozen sub's key is refused (within the owner cache of a few seconds).
    await server.web(master, "POST", "/v1/user/sub/freeze", { subUserId: sub.userId, frozen: true });
    await expect
      .poll(
        async () =>
          ex.fetchBalance().then(
            () => "ok",
            (e: unknown) => (e instanceof ccxt.PermissionDenied ? "denied" : String(e)),
          ),
        { timeout: 10_000, interval: 500 },
      )
      .toBe("denied");
    await server.web(master, "POST", "/v1/user/sub/freeze", { subUserId: sub.userId, frozen: false });
  } finally {
    await ex.close();
  }
});

it("refuses a key for someone else's sub", async () => {
  const other = await server.newUser();
  await expect(server.createKey(other, { subUid: sub.userId })).rejects.toThrow(/18003/);
});

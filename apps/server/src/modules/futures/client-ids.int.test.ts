import {
  Code,
  type FuturesAccount,
  type FuturesOrder,
  type FuturesPosition,
  type FuturesTrade,
  type PaperBalance,
  type SubAccountView,
  SubPath,
  type SubTransferView,
  type WalletTransferResult,
} from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { futuresSuite } from "../../test/futures.ts";
import { expectConserved } from "../../test/paper.ts";

/**
 * Client ids make a retried command run once (docs/trading.md, "Retries"): a futures
 * order, a wallet transfer and a sub-account transfer sent twice, one after the other and
 * both at once, and again after a restart, leave one order or one movement.
 */
const targets = reopenableDbTargets("futoid");
const F = "/v1/paper/futures";

describe.each(targets)("client ids on $name", (target) => {
  const suite = futuresSuite(target);

  const post = <T>(cookie: string, url: string, body: unknown) => suite.call<T>(cookie, "POST", url, body);
  const get = <T>(cookie: string, url: string) => suite.call<T>(cookie, "GET", url);
  const spotUsdt = async (cookie: string) =>
    (await get<PaperBalance[]>(cookie, "/v1/paper/balances")).data.find((b) => b.asset === "USDT")?.available;
  const wallet = async (cookie: string) => (await get<FuturesAccount>(cookie, `${F}/account`)).data.wallet;

  const { funded } = suite;

  const market = (clientOrderId: string) => ({
    symbol: "BTCUSDT",
    side: "BUY",
    type: "MARKET",
    quantity: "0.010",
    clientOrderId,
  });

  it("places a futures order once per client id, sent again or twice at once", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    const first = await post<FuturesOrder>(cookie, `${F}/orders`, market("bot-1"));
    expect(first.data).toMatchObject({ status: "FILLED", clientOrderId: "bot-1", executedQty: "0.010" });
    const again = await post<FuturesOrder>(cookie, `${F}/orders`, market("bot-1"));
    expect(again.data).toEqual(first.data);

    const both = await Promise.all([
      post<FuturesOrder>(cookie, `${F}/orders`, market("bot-2")),
      post<FuturesOrder>(cookie, `${F}/orders`, market("bot-2")),
    ]);
    expect(both.map((r) => r.code)).toEqual([Code.OK, Code.OK]);
    expect(both[0]?.data.id).toBe(both[1]?.data.id);
    expect(both[0]?.data.id).not.toBe(first.data.id);

    // Two orders, two fills, a 0.020 long: nothing placed twice.
    const positions = (await get<FuturesPosition[]>(cookie, `${F}/positions`)).data;
    expect(positions.map((p) => p.quantity)).toEqual(["0.020"]);
    const trades = (await get<FuturesTrade[]>(cookie, `${F}/trades`)).data;
    expect(trades.map((t) => t.orderId).sort()).toEqual([first.data.id, both[0]?.data.id].sort());
    const history = (await get<FuturesOrder[]>(cookie, `${F}/orders/history`)).data;
    expect(history.map((o) => o.clientOrderId).sort()).toEqual(["bot-1", "bot-2"]);
    await expectConserved(suite.run.ledger);
  });

  it("takes a client id on trigger and resting orders; without one the id is #<order id>", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    const stop = {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "STOP_MARKET",
      stopPrice: "55000.0",
      quantity: "0.010",
      clientOrderId: "plan-1",
    };
    const plans = await Promise.all([
      post<FuturesOrder>(cookie, `${F}/orders`, stop),
      post<FuturesOrder>(cookie, `${F}/orders`, stop),
    ]);
    expect(plans[0]?.data.id).toBe(plans[1]?.data.id);
    const plain = await post<FuturesOrder>(cookie, `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "LIMIT",
      price: "40000.0",
      quantity: "0.010",
    });
    expect(plain.data.clientOrderId).toBe(`#${plain.data.id}`);
    const open = (await get<FuturesOrder[]>(cookie, `${F}/orders/open`)).data;
    expect(open.map((o) => o.clientOrderId).sort()).toEqual([`#${plain.data.id}`, "plan-1"].sort());

    // The same id on another account is another order; a malformed one is refused.
    const other = await funded();
    const theirs = await post<FuturesOrder>(other, `${F}/orders`, stop);
    expect(theirs.data.id).not.toBe(plans[0]?.data.id);
    const bad = await post(cookie, `${F}/orders`, { ...stop, clientOrderId: "has space" });
    expect(bad.code).not.toBe(Code.OK);
  });

  it("transfers once per client id between spot, futures and margin", async () => {
    const cookie = await suite.activated();
    const spot0 = Number(await spotUsdt(cookie));

    const into = { direction: "IN", amount: "700", clientTransferId: "t-1" };
    const ins = await Promise.all([
      post<FuturesAccount>(cookie, `${F}/transfer`, into),
      post<FuturesAccount>(cookie, `${F}/transfer`, into),
    ]);
    expect(ins.map((r) => r.code)).toEqual([Code.OK, Code.OK]);
    expect((await post(cookie, `${F}/transfer`, into)).code).toBe(Code.OK);
    expect(await wallet(cookie)).toBe("700.00000000");

    // The wallet transfer shares the ids: "t-1" is taken, so this moves nothing.
    const reused = await post<WalletTransferResult>(cookie, "/v1/paper/asset/transfer", {
      from: "SPOT",
      to: "FUTURES",
      asset: "USDT",
      amount: "5",
      clientTransferId: "t-1",
    });
    expect(reused.code).toBe(Code.OK);
    expect(await wallet(cookie)).toBe("700.00000000");

    const toCross = {
      from: "SPOT",
      to: "CROSS_MARGIN",
      asset: "USDT",
      amount: "300",
      clientTransferId: "t-2",
    };
    const crossed = await Promise.all([
      post<WalletTransferResult>(cookie, "/v1/paper/asset/transfer", toCross),
      post<WalletTransferResult>(cookie, "/v1/paper/asset/transfer", toCross),
    ]);
    expect(crossed.map((r) => r.code)).toEqual([Code.OK, Code.OK]);
    expect(crossed[0]?.data.tranId).toBeGreaterThan(0);
    expect(crossed[1]?.data.tranId).toBe(crossed[0]?.data.tranId);
    // Without an id, each send is a transfer of its own.
    await post(cookie, "/v1/paper/asset/transfer", { ...toCross, clientTransferId: undefined, amount: "1" });
    await post(cookie, "/v1/paper/asset/transfer", { ...toCross, clientTransferId: undefined, amount: "1" });
    expect(Number(await spotUsdt(cookie))).toBe(spot0 - 700 - 300 - 2);
    await expectConserved(suite.run.ledger);
  });

  it("answers a retried order and transfer after a restart from storage", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    const placed = await post<FuturesOrder>(cookie, `${F}/orders`, market("before-restart"));
    const moved = { direction: "OUT", amount: "100", clientTransferId: "out-1" };
    expect((await post(cookie, `${F}/transfer`, moved)).code).toBe(Code.OK);
    await suite.restart();
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const again = await post<FuturesOrder>(cookie, `${F}/orders`, market("before-restart"));
    expect(again.data.id).toBe(placed.data.id);
    expect((await get<FuturesPosition[]>(cookie, `${F}/positions`)).data.map((p) => p.quantity)).toEqual([
      "0.010",
    ]);
    const wallet0 = await wallet(cookie);
    expect((await post(cookie, `${F}/transfer`, moved)).code).toBe(Code.OK);
    expect(await wallet(cookie)).toBe(wallet0);
    await expectConserved(suite.run.ledger);
  });

  it("makes a sub-account transfer once per client id", async () => {
    const master = await suite.activated();
    const sub = await post<SubAccountView>(master, SubPath.CREATE, {
      name: `cid${Date.now().toString(36)}`.slice(0, 20),
      label: "Desk",
    });
    expect(sub.code).toBe(Code.OK);
    const body = {
      subUserId: sub.data.userId,
      direction: "TO_SUB",
      wallet: "SPOT",
      asset: "USDT",
      amount: "250",
      clientTransferId: "sub-1",
    };
    const both = await Promise.all([
      post<SubTransferView>(master, SubPath.TRANSFER, body),
      post<SubTransferView>(master, SubPath.TRANSFER, body),
    ]);
    expect(both.map((r) => r.code)).toEqual([Code.OK, Code.OK]);
    expect(both[1]?.data).toEqual(both[0]?.data);
    expect(both[0]?.data).toMatchObject({ amount: "250.00000000", clientTransferId: "sub-1" });
    expect((await post<SubTransferView>(master, SubPath.TRANSFER, body)).data.id).toBe(both[0]?.data.id);
    const list = (await get<SubTransferView[]>(master, SubPath.TRANSFERS)).data;
    expect(list).toHaveLength(1);
    const views = (await get<{ subs: SubAccountView[] }>(master, SubPath.LIST)).data.subs;
    expect(views[0]?.wallets.SPOT?.find((b) => b.asset === "USDT")?.amount).toBe("250.00000000");
    await expectConserved(suite.run.ledger);
  });
});

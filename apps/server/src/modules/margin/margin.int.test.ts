import {
  Code,
  type FuturesAccount,
  type MarginAccountView,
  MarginCode,
  type MarginOrder,
  type MarginPairs,
  type MarginPlaceResult,
  type MarginRecord,
  type MarginTrade,
  type MaxAmount,
  type PaperBalance,
  PaperCode,
  type PaperOrder,
  type WalletTransferResult,
} from "@meridian/contracts";
import { DAILY_INTEREST_E8, hourlyInterest, priceToTicks, toMinor } from "@meridian/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import {
  paperCall as call,
  expectConserved,
  makerQuote,
  type PaperTestApp,
  paperTestApp,
} from "../../test/paper.ts";
import { LocalVenue } from "../paper/index.ts";
import type { MarginService } from "./service.ts";

const INTERVAL = 60_000;
const targets = reopenableDbTargets("margin");

/** The margin module's clock (interest boundaries); the rest of the app runs on real time. */
let clock = Date.UTC(2026, 0, 5, 10, 0, 30);

interface Running extends PaperTestApp {
  margin: MarginService;
}

/** Paper trading, futures (the wallet transfer's other side) and margin on `db`, on a venue with the maker's ladder. */
function start(db: PlatformDb, venue = new LocalVenue()): Promise<Running> {
  return paperTestApp(db, {
    venue,
    core: {
      futures: { testMarks: true },
      margin: { now: () => clock, interestIntervalMs: INTERVAL, testPrices: true },
    },
  });
}

const M = "/v1/paper/margin";
const T = "/v1/paper/asset/transfer";

describe.each(targets)("margin on $name", (target) => {
  let env: Awaited<ReturnType<DbTarget["open"]>>;
  let run: Running;
  beforeAll(async () => {
    env = await target.open();
    run = await start(env.db());
  });
  afterAll(async () => {
    await run.app.close();
    await run.db.close();
    await env.cleanup();
  });

  const get = <T>(cookie: string, url: string) => call<T>(run.app, cookie, "GET", url);
  const post = <T>(cookie: string, url: string, body: unknown) => call<T>(run.app, cookie, "POST", url, body);
  const cross = (cookie: string) => get<MarginAccountView>(cookie, `${M}/account?mode=cross`);
  const asset = (v: MarginAccountView, a: string) => v.assets.find((x) => x.asset === a);
  /** Spot to the isolated BTCUSDT margin account. */
  const toIsolated = (cookie: string, asset: string, amount: string) =>
    post(cookie, T, { from: "SPOT", to: "ISOLATED_MARGIN", symbol: "BTCUSDT", asset, amount });
  const spot = async (cookie: string) => (await get<PaperBalance[]>(cookie, "/v1/paper/balances")).data;

  async function conserved(): Promise<void> {
    await expectConserved(run.ledger);
    const { loans, pool } = run.margin.debts();
    for (const a of new Set([...loans.keys(), ...pool.keys()]))
      expect(pool.get(a) ?? 0n).toBe(-(loans.get(a) ?? 0n));
  }

  /** Deep maker quotes around 97,000 (the ladder alone is thin): 2 BTC each side. */
  function deep(): void {
    makerQuote(run.venue, "BTCUSDT", "SELL", "97050.00", "2");
    makerQuote(run.venue, "BTCUSDT", "BUY", "96950.00", "2");
  }

  async function funded(amount = "3000"): Promise<string> {
    deep();
    const cookie = await run.login();
    const t = await post<WalletTransferResult>(cookie, T, {
      from: "SPOT",
      to: "CROSS_MARGIN",
      asset: "USDT",
      amount,
    });
    expect(t.code).toBe(Code.OK);
    expect(t.data.tranId).toBeGreaterThan(0);
    return cookie;
  }

  it("lists the marginable pairs with leverages and rates (public)", async () => {
    const r = await call<MarginPairs>(run.app, "", "GET", `${M}/pairs`, undefined, {});
    expect(r.code).toBe(Code.OK);
    const symbols = r.data.pairs.map((p) => p.symbol);
    for (const s of ["BTCUSDT", "ETHUSDT", "SOLUSDT", "BNBUSDT", "XRPUSDT", "DOGEUSDT"])
      expect(symbols).toContain(s);
    expect(r.data.pairs[0]).toMatchObject({ crossLeverage: 3, isolatedLeverage: 10, quote: "USDT" });
    expect(r.data.rates.find((x) => x.asset === "USDT")).toEqual({
      asset: "USDT",
      dailyRate: "0.0002",
      hourlyRate: "0.00000833333333",
    });
    expect(r.data).toMatchObject({ marginCallLevel: "1.3", liquidationLevel: "1.1" });
  });

  it("transfers in and out; out only while the level stays >= 2; borrows up to the max, 15002 beyond", async () => {
    const cookie = await funded("3000");
    const before = await cross(cookie);
    expect(before.data).toMatchObject({ mode: "cross", leverage: 3, marginLevel: null, status: "NORMAL" });
    expect(asset(before.data, "USDT")).toMatchObject({ free: "3000.00000000", borrowed: "0.00000000" });
    expect((await spot(cookie)).find((b) => b.asset === "USDT")?.available).toBe("47000.00000000");

    const max = await get<MaxAmount>(cookie, `${M}/max-borrowable?mode=cross&asset=USDT`);
    expect(max.data).toEqual({ asset: "USDT", amount: "6000.00000000" });
    const over = await post(cookie, `${M}/borrow`, { mode: "cross", asset: "USDT", amount: "6000.00000001" });
    expect(over.code).toBe(MarginCode.BORROW_EXCEEDS_MAX);
    expect(over.data).toMatchObject({ max: "6000.00000000" });
    const b = await post<MarginAccountView>(cookie, `${M}/borrow`, {
      mode: "cross",
      asset: "USDT",
      amount: "1000",
    });
    expect(b.code).toBe(Code.OK);
    expect(asset(b.data, "USDT")).toMatchObject({ free: "4000.00000000", borrowed: "1000.00000000" });
    expect(b.data.marginLevel).toBe("4.00");

    // 4,000 of assets against 1,000 owed: 2,000 may leave (level 2 after).
    const mt = await get<MaxAmount>(cookie, `${M}/max-transferable?mode=cross&asset=USDT`);
    expect(mt.data.amount).toBe("2000.00000000");
    const tooMuch = await post(cookie, T, {
      from: "CROSS_MARGIN",
      to: "SPOT",
      asset: "USDT",
      amount: "2000.00000001",
    });
    expect(tooMuch.code).toBe(MarginCode.TRANSFER_EXCEEDS);
    expect(tooMuch.data).toMatchObject({ max: "2000.00000000" });
    expect(
      (await post(cookie, T, { from: "CROSS_MARGIN", to: "SPOT", asset: "USDT", amount: "2000" })).code,
    ).toBe(Code.OK);
    expect((await cross(cookie)).data.marginLevel).toBe("2.00");
    expect((await spot(cookie)).find((b) => b.asset === "USDT")?.available).toBe("49000.00000000");
    // More than the spot wallet holds.
    const broke = await post(cookie, T, { from: "SPOT", to: "CROSS_MARGIN", asset: "BTC", amount: "1" });
    expect(broke.code).toBe(MarginCode.TRANSFER_EXCEEDS);
    expect(broke.data).toMatchObject({ max: "0.50000000" });
    await conserved();
  });

  it("charges interest once per interval, survives a restart without a double charge, repays interest first", async () => {
    const cookie = await funded("3000");
    expect((await post(cookie, `${M}/borrow`, { mode: "cross", asset: "USDT", amount: "2400" })).code).toBe(
      Code.OK,
    );
    await run.margin.accrueDue();
    const initial = asset((await cross(cookie)).data, "USDT")?.interest ?? "";
    clock += INTERVAL;
    expect(await run.margin.accrueDue()).toBe(1);
    expect(await run.margin.accrueDue()).toBe(0);
    const one = hourlyInterest(toMinor("USDT", "2400") ?? 0n, DAILY_INTEREST_E8.USDT ?? 0n);
    const after = asset((await cross(cookie)).data, "USDT");
    expect(toMinor("USDT", after?.interest ?? "") ?? -1n).toBe((toMinor("USDT", initial) ?? 0n) + one);

    // Restart on the same database at the same time: nothing more is charged.
    await run.app.close();
    run = await start(env.db());
    expect(await run.margin.accrueDue()).toBe(0);
    expect(asset((await cross(cookie)).data, "USDT")?.interest).toBe(after?.interest);
    // Two intervals later (the app down meanwhile): both are charged once.
    clock += 2 * INTERVAL;
    await run.app.close();
    run = await start(env.db());
    const owed = asset((await cross(cookie)).data, "USDT");
    expect(toMinor("USDT", owed?.interest ?? "")).toBe(
      (toMinor("USDT", after?.interest ?? "") ?? 0n) + 2n * one,
    );

    const interestRecords = await get<MarginRecord[]>(cookie, `${M}/records?type=INTEREST`);
    expect(interestRecords.data.length).toBeGreaterThanOrEqual(2);
    expect(interestRecords.data[0]).toMatchObject({ type: "INTEREST", asset: "USDT", mode: "cross" });

    // Repay a little: interest first, then principal.
    const interest = owed?.interest ?? "0";
    const r = await post<MarginAccountView>(cookie, `${M}/repay`, {
      mode: "cross",
      asset: "USDT",
      amount: "1",
    });
    expect(r.code).toBe(Code.OK);
    const rec = (await get<MarginRecord[]>(cookie, `${M}/records?type=REPAY`)).data[0];
    expect(rec).toMatchObject({ type: "REPAY", amount: "1.00000000", interest });
    expect(toMinor("USDT", rec?.principal ?? "")).toBe(
      (toMinor("USDT", "1") ?? 0n) - (toMinor("USDT", interest) ?? 0n),
    );
    expect(asset(r.data, "USDT")?.interest).toBe("0.00000000");
    // More than owed: 15003 with what is owed.
    const tooMuch = await post(cookie, `${M}/repay`, { mode: "cross", asset: "USDT", amount: "3000" });
    expect(tooMuch.code).toBe(MarginCode.REPAY_INVALID);
    expect(tooMuch.data).toMatchObject({ owed: asset(r.data, "USDT")?.borrowed });
    await conserved();
  });

  it("margin orders fill against the liquidity maker and settle in the margin account, not spot", async () => {
    const cookie = await funded("3000");
    const spotBefore = await spot(cookie);
    const placed = await post<MarginPlaceResult>(cookie, `${M}/orders`, {
      mode: "cross",
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.01",
    });
    expect(placed.code).toBe(Code.OK);
    expect(placed.data.order).toMatchObject({
      status: "FILLED",
      mode: "cross",
      sideEffectType: "NO_SIDE_EFFECT",
    });
    expect(placed.data.fills.length).toBeGreaterThan(0);
    expect(placed.data.borrowed).toBeNull();
    const v = (await cross(cookie)).data;
    expect(asset(v, "BTC")?.free).toBe("0.01000000");
    const spent = toMinor("USDT", placed.data.order.cummulativeQuoteQty) ?? 0n;
    const fee = toMinor("USDT", placed.data.order.fee) ?? 0n;
    expect(toMinor("USDT", asset(v, "USDT")?.free ?? "")).toBe((toMinor("USDT", "3000") ?? 0n) - spent - fee);
    expect(await spot(cookie)).toEqual(spotBefore);

    // Spot endpoints see no margin order or fill; margin endpoints see them.
    expect((await get<PaperOrder[]>(cookie, "/v1/paper/orders/history")).data).toEqual([]);
    expect((await get<unknown[]>(cookie, "/v1/paper/trades")).data).toEqual([]);
    const history = await get<MarginOrder[]>(cookie, `${M}/orders/history`);
    expect(history.data.map((o) => o.orderId)).toEqual([placed.data.order.orderId]);
    const trades = await get<MarginTrade[]>(cookie, `${M}/trades?mode=cross`);
    expect(trades.data.length).toBe(placed.data.fills.length);
    expect((await get<MarginTrade[]>(cookie, `${M}/trades?mode=isolated`)).data).toEqual([]);

    // A resting limit: held in the margin account (locked), cancelled through the margin endpoint only.
    const limit = await post<MarginPlaceResult>(cookie, `${M}/orders`, {
      mode: "cross",
      symbol: "BTCUSDT",
      side: "SELL",
      type: "LIMIT",
      price: "150000.00",
      quantity: "0.005",
      clientOrderId: "m-limit-1",
    });
    expect(limit.data.order.status).toBe("NEW");
    expect(asset((await cross(cookie)).data, "BTC")).toMatchObject({
      free: "0.00500000",
      locked: "0.00500000",
    });
    const open = await get<MarginOrder[]>(cookie, `${M}/orders/open`);
    expect(open.data.map((o) => o.orderId)).toEqual([limit.data.order.orderId]);
    expect((await get<PaperOrder[]>(cookie, "/v1/paper/orders/open")).data).toEqual([]);
    const spotCancel = await call(run.app, cookie, "DELETE", `/v1/paper/orders/${limit.data.order.orderId}`);
    expect(spotCancel.code).toBe(PaperCode.ORDER_NOT_FOUND);
    // The same client id again: the same order (duplicate); on spot it is refused.
    const again = await post<MarginPlaceResult>(cookie, `${M}/orders`, {
      mode: "cross",
      symbol: "BTCUSDT",
      side: "SELL",
      type: "LIMIT",
      price: "150000.00",
      quantity: "0.005",
      clientOrderId: "m-limit-1",
    });
    expect(again.data).toMatchObject({ duplicate: true, order: { orderId: limit.data.order.orderId } });
    const spotDup = await post(cookie, "/v1/paper/orders", {
      symbol: "BTCUSDT",
      side: "SELL",
      type: "LIMIT",
      price: "150000.00",
      quantity: "0.005",
      clientOrderId: "m-limit-1",
    });
    expect(spotDup.code).toBe(PaperCode.ORDER_REJECTED);
    const cancelled = await call<MarginOrder>(
      run.app,
      cookie,
      "DELETE",
      `${M}/orders/${limit.data.order.orderId}`,
    );
    expect(cancelled.data).toMatchObject({ status: "CANCELED", mode: "cross" });
    const twice = await call(run.app, cookie, "DELETE", `${M}/orders/${limit.data.order.orderId}`);
    expect(twice.code).toBe(PaperCode.ORDER_NOT_OPEN);
    expect(asset((await cross(cookie)).data, "BTC")).toMatchObject({
      free: "0.01000000",
      locked: "0.00000000",
    });
    await conserved();
  });

  it("MARGIN_BUY borrows the shortfall first; AUTO_REPAY repays from the proceeds", async () => {
    const cookie = await funded("500");
    const pushed: Array<{ accountId: number; event: string }> = [];
    const off = run.ledger.onPush((accountId, messages) => {
      for (const m of messages) pushed.push({ accountId, event: (m as { event: string }).event });
    });
    const buy = await post<MarginPlaceResult>(cookie, `${M}/orders`, {
      mode: "cross",
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.01",
      sideEffectType: "MARGIN_BUY",
    });
    expect(buy.code).toBe(Code.OK);
    expect(buy.data.order).toMatchObject({ status: "FILLED", sideEffectType: "MARGIN_BUY" });
    expect(buy.data.borrowed?.asset).toBe("USDT");
    const borrowed = toMinor("USDT", buy.data.borrowed?.amount ?? "") ?? 0n;
    expect(borrowed).toBeGreaterThan(toMinor("USDT", "400") ?? 0n);
    let v = (await cross(cookie)).data;
    expect(asset(v, "USDT")?.borrowed).toBe(buy.data.borrowed?.amount);
    expect(asset(v, "BTC")?.free).toBe("0.01000000");
    expect((await get<MarginRecord[]>(cookie, `${M}/records?type=BORROW`)).data[0]?.amount).toBe(
      buy.data.borrowed?.amount,
    );
    // Without the side effect the same order lacks funds.
    const plain = await post(cookie, `${M}/orders`, {
      mode: "cross",
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.01",
    });
    expect(plain.code).toBe(PaperCode.INSUFFICIENT_BALANCE);
    // Beyond what the level allows: 15002, and nothing borrowed.
    const huge = await post(cookie, `${M}/orders`, {
      mode: "cross",
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "1",
      sideEffectType: "MARGIN_BUY",
    });
    expect(huge.code).toBe(MarginCode.BORROW_EXCEEDS_MAX);
    expect(asset((await cross(cookie)).data, "USDT")?.borrowed).toBe(buy.data.borrowed?.amount);

    const sell = await post<MarginPlaceResult>(cookie, `${M}/orders`, {
      mode: "cross",
      symbol: "BTCUSDT",
      side: "SELL",
      type: "MARKET",
      quantity: "0.01",
      sideEffectType: "AUTO_REPAY",
    });
    expect(sell.data.order.status).toBe("FILLED");
    v = (await cross(cookie)).data;
    const proceeds =
      (toMinor("USDT", sell.data.order.cummulativeQuoteQty) ?? 0n) -
      (toMinor("USDT", sell.data.order.fee) ?? 0n);
    // The proceeds (~970) exceed the debt (~470): the whole debt is repaid from them, the rest stays.
    expect(proceeds).toBeGreaterThan(borrowed);
    expect(asset(v, "USDT")?.borrowed).toBe("0.00000000");
    // One repayment per fill, together the whole debt.
    const repays = (await get<MarginRecord[]>(cookie, `${M}/records?type=REPAY`)).data;
    expect(repays.length).toBeGreaterThan(0);
    expect(repays.reduce((sum, r) => sum + (toMinor("USDT", r.amount) ?? 0n), 0n)).toBe(borrowed);
    const free = toMinor("USDT", asset(v, "USDT")?.free ?? "") ?? 0n;
    const before = toMinor("USDT", "500") ?? 0n;
    const boughtFor =
      (toMinor("USDT", buy.data.order.cummulativeQuoteQty) ?? 0n) +
      (toMinor("USDT", buy.data.order.fee) ?? 0n);
    expect(free).toBe(before + borrowed - boughtFor + proceeds - borrowed);
    // The user stream heard the account, the orders and the fills.
    off();
    const me = (await run.ledger.accountFor(await userIdOf(cookie))).id;
    const events = new Set(pushed.filter((p) => p.accountId === me).map((p) => p.event));
    expect([...events].sort()).toEqual(["margin", "marginFill", "marginOrder"]);
    await conserved();
  });

  it("isolated accounts carry only their pair's assets and are listed", async () => {
    const cookie = await run.login();
    const eth = await toIsolated(cookie, "ETH", "1");
    expect(eth.code).toBe(MarginCode.ASSET_NOT_ALLOWED);
    expect((await toIsolated(cookie, "USDT", "1000")).code).toBe(Code.OK);
    const iso = await get<MarginAccountView>(cookie, `${M}/account?mode=isolated&symbol=BTCUSDT`);
    expect(iso.data).toMatchObject({
      mode: "isolated",
      symbol: "BTCUSDT",
      leverage: 10,
      liquidationPrice: null,
    });
    expect(iso.data.assets.map((a) => a.asset)).toEqual(["BTC", "USDT"]);
    expect(
      (await get<MaxAmount>(cookie, `${M}/max-borrowable?mode=isolated&symbol=BTCUSDT&asset=USDT`)).data
        .amount,
    ).toBe("9000.00000000");
    expect(
      (await post(cookie, `${M}/borrow`, { mode: "isolated", symbol: "BTCUSDT", asset: "ETH", amount: "1" }))
        .code,
    ).toBe(MarginCode.ASSET_NOT_ALLOWED);
    const list = await get<MarginAccountView[]>(cookie, `${M}/isolated`);
    expect(list.data.map((a) => a.symbol)).toEqual(["BTCUSDT"]);
    // The cross account is untouched by the isolated one.
    expect(asset((await cross(cookie)).data, "USDT")?.free ?? "0.00000000").toBe("0.00000000");
  });

  it("moves USDT between futures and margin within the futures wallet's max", async () => {
    const cookie = await run.login();
    const toFutures = await post<{ tranId: number }>(cookie, T, {
      from: "SPOT",
      to: "FUTURES",
      asset: "USDT",
      amount: "100",
    });
    expect(toFutures.code).toBe(Code.OK);
    // Spot <-> futures answers the futures transfer's own id (it answered 0 once).
    expect(toFutures.data.tranId).toBeGreaterThan(0);
    expect(
      (await post(cookie, T, { from: "FUTURES", to: "CROSS_MARGIN", asset: "USDT", amount: "60" })).code,
    ).toBe(Code.OK);
    const over = await post(cookie, T, { from: "FUTURES", to: "CROSS_MARGIN", asset: "USDT", amount: "41" });
    expect(over.code).toBe(MarginCode.TRANSFER_EXCEEDS);
    expect(over.data).toMatchObject({ max: "40.00000000" });
    expect(run.margin.futuresWallet((await run.ledger.accountFor(await userIdOf(cookie))).id)).toBe(
      toMinor("USDT", "40"),
    );
    expect(
      (await post(cookie, T, { from: "CROSS_MARGIN", to: "FUTURES", asset: "USDT", amount: "10" })).code,
    ).toBe(Code.OK);
    expect(asset((await cross(cookie)).data, "USDT")?.free).toBe("50.00000000");
    // BNB has no futures wallet (neither USDT-M nor coin-M).
    const bnb = await post(cookie, T, { from: "FUTURES", to: "CROSS_MARGIN", asset: "BNB", amount: "1" });
    expect(bnb.code).toBe(MarginCode.TRANSFER_INVALID);
    const records = await get<MarginRecord[]>(cookie, `${M}/records`);
    expect(records.data.map((r) => r.type)).toEqual(["TRANSFER_OUT", "TRANSFER_IN"]);
    await conserved();
  });

  it("moves BTC between spot, margin and the BTC coin-M wallet, both ways, within what it can spare", async () => {
    deep();
    await run.futures.pinMark("BTCUSD", "97000.0");
    const cookie = await run.login();
    const spotBtc = async () => (await spot(cookie)).find((b) => b.asset === "BTC")?.available;
    const coinWallet = async () =>
      (await get<FuturesAccount>(cookie, "/v1/paper/futures/account?marginCoin=BTC")).data;
    const before = await spotBtc();
    const into = await post<WalletTransferResult>(cookie, T, {
      from: "SPOT",
      to: "FUTURES",
      asset: "BTC",
      amount: "0.05",
      clientTransferId: "coin-in-1",
    });
    expect(into.code).toBe(Code.OK);
    expect(into.data.tranId).toBeGreaterThan(0);
    // Sent again with its id: the first transfer's id, nothing moved twice.
    const again = await post<WalletTransferResult>(cookie, T, {
      from: "SPOT",
      to: "FUTURES",
      asset: "BTC",
      amount: "0.05",
      clientTransferId: "coin-in-1",
    });
    expect(again.data.tranId).toBe(into.data.tranId);
    expect(toMinor("BTC", (await spotBtc()) ?? "x")).toBe(
      (toMinor("BTC", before ?? "x") ?? 0n) - (toMinor("BTC", "0.05") ?? 0n),
    );
    expect(await coinWallet()).toMatchObject({ family: "coin", marginCoin: "BTC", wallet: "0.05000000" });
    // The USDT-M wallet is another wallet: untouched.
    expect(run.margin.futuresWallet((await run.ledger.accountFor(await userIdOf(cookie))).id)).toBe(0n);

    // An open BTCUSD long holds margin: only what the wallet can spare may leave it.
    const order = await post(cookie, "/v1/paper/futures/orders", {
      symbol: "BTCUSD",
      side: "BUY",
      type: "MARKET",
      quantity: "20",
    });
    expect(order.code).toBe(Code.OK);
    const spare = (await coinWallet()).maxTransferOut;
    const spareMinor = toMinor("BTC", spare) ?? 0n;
    expect(spareMinor).toBeGreaterThan(0n);
    expect(spareMinor).toBeLessThan(toMinor("BTC", "0.05") ?? 0n);
    const tooMuch = await post(cookie, T, { from: "FUTURES", to: "SPOT", asset: "BTC", amount: "0.05" });
    expect(tooMuch.code).toBe(MarginCode.TRANSFER_EXCEEDS);
    expect(tooMuch.data).toMatchObject({ max: spare });
    // Out to cross margin (through spot), then the rest of what it can spare back to spot.
    const toCross = await post<WalletTransferResult>(cookie, T, {
      from: "FUTURES",
      to: "CROSS_MARGIN",
      asset: "BTC",
      amount: "0.01",
    });
    expect(toCross.code).toBe(Code.OK);
    expect(asset((await cross(cookie)).data, "BTC")?.free).toBe("0.01000000");
    const rest = (await coinWallet()).maxTransferOut;
    const out = await post<WalletTransferResult>(cookie, T, {
      from: "FUTURES",
      to: "SPOT",
      asset: "BTC",
      amount: rest,
    });
    expect(out.code).toBe(Code.OK);
    expect(out.data.tranId).toBeGreaterThan(toCross.data.tranId);
    expect((await coinWallet()).maxTransferOut).toBe("0.00000000");
    // Cross margin back to the coin-M wallet.
    expect(
      (await post(cookie, T, { from: "CROSS_MARGIN", to: "FUTURES", asset: "BTC", amount: "0.004" })).code,
    ).toBe(Code.OK);
    // Bad input: more decimals than BTC has, a coin without a coin-M wallet.
    const fine = await post(cookie, T, { from: "SPOT", to: "FUTURES", asset: "BTC", amount: "0.000000001" });
    expect(fine.code).toBe(Code.VALIDATION_FAILED);
    const bnb = await post(cookie, T, { from: "SPOT", to: "FUTURES", asset: "BNB", amount: "1" });
    expect(bnb.code).toBe(MarginCode.TRANSFER_INVALID);
    await conserved();
  });

  async function userIdOf(cookie: string): Promise<string> {
    return (await run.accounts.authenticate(cookie.split("=")[1] ?? "")).user.id;
  }

  it("liquidates an isolated account below 1.1 after a price move: open orders cancelled, pool repaid, fund moved", async () => {
    const cookie = await run.login();
    deep();
    const scope = "mode=isolated&symbol=BTCUSDT";
    expect((await toIsolated(cookie, "USDT", "1000")).code).toBe(Code.OK);
    const long = await post<MarginPlaceResult>(cookie, `${M}/orders`, {
      mode: "isolated",
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.08",
      sideEffectType: "MARGIN_BUY",
    });
    expect(long.data.order.status).toBe("FILLED");
    // A resting sell far away, which the liquidation must cancel first.
    const rest = await post<MarginPlaceResult>(cookie, `${M}/orders`, {
      mode: "isolated",
      symbol: "BTCUSDT",
      side: "SELL",
      type: "LIMIT",
      price: "200000.00",
      quantity: "0.01",
    });
    expect(rest.data.order.status).toBe("NEW");
    const before = (await get<MarginAccountView>(cookie, `${M}/account?${scope}`)).data;
    expect(before.status).toBe("MARGIN_CALL");
    expect(Number(before.marginLevel)).toBeGreaterThan(1.1);
    const liq = Number(before.liquidationPrice);
    expect(liq).toBeGreaterThan(80_000);
    expect(liq).toBeLessThan(97_000);
    const insuranceBefore = run.ledger.ledgerBalance("system:insurance", "USDT");

    // The price falls below the liquidation price: the venue requotes and the check runs.
    const spec = run.venue.spec("BTCUSDT");
    const ticks = spec === undefined ? null : priceToTicks(spec, String(Math.floor(liq * 0.97)));
    if (ticks === null || !ticks.ok) throw new Error("bad price");
    run.venue.setPrice("BTCUSDT", ticks.value);
    await run.margin.riskPass();

    const after = (await get<MarginAccountView>(cookie, `${M}/account?${scope}`)).data;
    expect(after.marginLevel).toBeNull();
    expect(after.status).toBe("NORMAL");
    for (const a of after.assets) {
      expect(a.borrowed).toBe("0.00000000");
      expect(a.interest).toBe("0.00000000");
      expect(a.locked).toBe("0.00000000");
      expect(a.free.startsWith("-")).toBe(false);
    }
    expect(asset(after, "BTC")?.free).toBe("0.00000000");
    const cancelled = (await get<MarginOrder[]>(cookie, `${M}/orders/history?mode=isolated`)).data.find(
      (o) => o.orderId === rest.data.order.orderId,
    );
    expect(cancelled?.status).toBe("CANCELED");
    const record = (await get<MarginRecord[]>(cookie, `${M}/records?type=LIQUIDATION`)).data[0];
    expect(record).toMatchObject({ type: "LIQUIDATION", mode: "isolated", symbol: "BTCUSDT", asset: "USDT" });
    expect(record?.amount).toBe(asset(after, "USDT")?.free);
    expect(run.ledger.ledgerBalance("system:insurance", "USDT")).not.toBe(insuranceBefore);
    await conserved();
  });

  it("answers every bad input with an envelope code", async () => {
    const cookie = await funded("100");
    const cases: Array<[string, "GET" | "POST" | "DELETE", string, unknown, string]> = [
      [
        "unknown pair",
        "GET",
        `${M}/account?mode=isolated&symbol=FOOUSDT`,
        undefined,
        MarginCode.UNKNOWN_PAIR,
      ],
      ["isolated without symbol", "GET", `${M}/account?mode=isolated`, undefined, Code.VALIDATION_FAILED],
      ["bad mode", "GET", `${M}/account?mode=portfolio`, undefined, Code.VALIDATION_FAILED],
      [
        "asset not in cross",
        "GET",
        `${M}/max-borrowable?mode=cross&asset=FOO`,
        undefined,
        MarginCode.ASSET_NOT_ALLOWED,
      ],
      [
        "negative amount",
        "POST",
        `${M}/borrow`,
        { mode: "cross", asset: "USDT", amount: "-1" },
        Code.VALIDATION_FAILED,
      ],
      [
        "too precise",
        "POST",
        `${M}/borrow`,
        { mode: "cross", asset: "XRP", amount: "1.0000001" },
        Code.VALIDATION_FAILED,
      ],
      ["zero", "POST", `${M}/borrow`, { mode: "cross", asset: "USDT", amount: "0" }, Code.VALIDATION_FAILED],
      [
        "repay nothing owed",
        "POST",
        `${M}/repay`,
        { mode: "cross", asset: "BTC", amount: "1" },
        MarginCode.REPAY_INVALID,
      ],
      [
        "same wallet",
        "POST",
        T,
        { from: "SPOT", to: "SPOT", asset: "USDT", amount: "1" },
        MarginCode.TRANSFER_INVALID,
      ],
      [
        "isolated transfer without symbol",
        "POST",
        T,
        { from: "SPOT", to: "ISOLATED_MARGIN", asset: "USDT", amount: "1" },
        Code.VALIDATION_FAILED,
      ],
      [
        "unknown wallet",
        "POST",
        T,
        { from: "SPOT", to: "EARN", asset: "USDT", amount: "1" },
        Code.VALIDATION_FAILED,
      ],
      [
        "order on unknown pair",
        "POST",
        `${M}/orders`,
        { symbol: "FOOUSDT", side: "BUY", type: "MARKET", quantity: "1" },
        MarginCode.UNKNOWN_PAIR,
      ],
      [
        "limit without price",
        "POST",
        `${M}/orders`,
        { symbol: "BTCUSDT", side: "BUY", type: "LIMIT", quantity: "1" },
        Code.VALIDATION_FAILED,
      ],
      [
        "bad side effect",
        "POST",
        `${M}/orders`,
        { symbol: "BTCUSDT", side: "BUY", type: "MARKET", quantity: "1", sideEffectType: "BORROW_ALL" },
        Code.VALIDATION_FAILED,
      ],
      ["cancel unknown order", "DELETE", `${M}/orders/999999`, undefined, PaperCode.ORDER_NOT_FOUND],
      ["bad record type", "GET", `${M}/records?type=FEE`, undefined, Code.VALIDATION_FAILED],
      [
        "test price of unknown pair",
        "POST",
        `${M}/test/price`,
        { symbol: "FOOUSDT", price: "1" },
        MarginCode.UNKNOWN_PAIR,
      ],
    ];
    for (const [name, method, url, body, code] of cases) {
      const r = await call(run.app, cookie, method, url, body);
      expect({ name, code: r.code }).toEqual({ name, code });
    }
    const noHeader = await call(run.app, cookie, "GET", `${M}/account`, undefined, {});
    expect(noHeader.code).toBe(PaperCode.PAPER_ONLY);
    const anon = await call(run.app, "", "GET", `${M}/account`);
    expect([Code.UNAUTHENTICATED, Code.SESSION_INVALID]).toContain(anon.code);
  });
});

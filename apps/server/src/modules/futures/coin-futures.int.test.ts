import {
  Code,
  type FundingRecord,
  type FuturesAccount,
  FuturesCode,
  type FuturesMark,
  type FuturesOrder,
  type FuturesPosition,
  type FuturesTrade,
  type InsuranceFund,
} from "@meridian/contracts";
import { parseScaled } from "@meridian/domain";
import { describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { futuresSuite } from "../../test/futures.ts";
import { expectConserved } from "../../test/paper.ts";

const targets = reopenableDbTargets("coin-futures");
const F = "/v1/paper/futures";

/** BTC minor units (satoshi) of a decimal string. */
const sats = (text: string): bigint => {
  const p = parseScaled(text, 8);
  if (p === null) throw new Error(`not an amount: ${text}`);
  return p.scaled;
};

// Coin-margined BTCUSD (100 USD a contract) on the BTCUSDT book; the figures are the
// worked examples of docs/trading.md ("Coin-margined perpetuals").
describe.each(targets)("coin-margined futures on $name", (target) => {
  const suite = futuresSuite(target);

  const { activated } = suite;
  const funded = (btc = "0.1") => suite.funded(btc, "BTC");

  const coinAccount = async (cookie: string) =>
    (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account?marginCoin=BTC`)).data;
  const positions = async (cookie: string, family = "coin") =>
    (await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions?family=${family}`)).data;

  async function openIsolatedLong(cookie: string): Promise<FuturesOrder> {
    expect((await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSD", leverage: 20 })).code).toBe(
      Code.OK,
    );
    expect(
      (await suite.call(cookie, "POST", `${F}/margin-mode`, { symbol: "BTCUSD", marginMode: "isolated" }))
        .code,
    ).toBe(Code.OK);
    return buy10(cookie);
  }

  /** A market buy of 10 BTCUSD contracts (0.02 BTC at 50,000). */
  async function buy10(cookie: string): Promise<FuturesOrder> {
    const placed = await suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSD",
      side: "BUY",
      type: "MARKET",
      quantity: "10",
    });
    expect(placed.code).toBe(Code.OK);
    return placed.data;
  }

  it("lists the coin-M contracts with their contract values", async () => {
    const marks = (await suite.call<FuturesMark[]>(await activated(), "GET", `${F}/marks?family=coin`)).data;
    expect(marks.map((m) => m.symbol)).toEqual([
      "BTCUSD",
      "ETHUSD",
      "SOLUSD",
      "XRPUSD",
      "DOGEUSD",
      "ADAUSD",
      "LTCUSD",
    ]);
    expect(marks[0]).toMatchObject({
      family: "coin",
      marginCoin: "BTC",
      contractValue: "100",
      stepSize: "1",
    });
    // Every coin-M contract has a price from its base's USDT pair (LTCUSD from LTCUSDT).
    for (const m of marks) expect(Number(m.indexPrice), m.symbol).toBeGreaterThan(0);
  });

  it("transfers BTC in, opens, adjusts and closes a BTCUSD position at 20x", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await funded();
    const order = await openIsolatedLong(cookie);
    expect(order).toMatchObject({ family: "coin", status: "FILLED", executedQty: "10", avgPrice: "50000.0" });
    const [opened] = (await suite.call<FuturesTrade[]>(cookie, "GET", `${F}/trades?family=coin`)).data;
    expect(opened).toMatchObject({ marginCoin: "BTC", price: "50000.0", quantity: "10" });
    const fee = sats(opened?.fee ?? "x");
    expect(fee > 0n).toBe(true);

    // Worked examples 1 and 3: 0.02 BTC at 20x sets 0.001 BTC aside; liquidation at 47,809.6.
    let [pos] = await positions(cookie);
    expect(pos).toMatchObject({
      symbol: "BTCUSD",
      marginCoin: "BTC",
      quantity: "10",
      entryPrice: "50000.000",
      notional: "0.02000000",
      margin: "0.00100000",
      maintenanceMargin: "0.00008000",
      liquidationPrice: "47809.6",
    });
    let acct = await coinAccount(cookie);
    expect(sats(acct.wallet)).toBe(sats("0.1") - 100_000n - fee);
    expect(acct.isolatedMargin).toBe("0.00100000");

    // Worked example 2: at 55,000 the long is 1/550 BTC up, rounded down.
    await suite.run.futures.pinMark("BTCUSD", "55000.0");
    [pos] = await positions(cookie);
    expect(pos?.unrealisedPnl).toBe("0.00181818");
    // The USDT-M side sees none of it.
    expect(await positions(cookie, "usdt")).toEqual([]);

    // Adjust: 0.001 BTC more margin: (0.002 + 0.02) x P = 1,000 x 1.004 -> 45,636.4.
    const added = await suite.call<FuturesPosition>(cookie, "POST", `${F}/positions/margin`, {
      symbol: "BTCUSD",
      type: "ADD",
      amount: "0.001",
    });
    expect(added.data).toMatchObject({ margin: "0.00200000", liquidationPrice: "45636.4" });
    // Leverage is locked on an isolated position (14009), as on the USDT-M side.
    expect((await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSD", leverage: 10 })).code).toBe(
      FuturesCode.SETTING_LOCKED,
    );

    // Close at the book's bid 49,990.0: 1,000 x (1/50,000 - 1/49,990) = -0.0000040008 -> -0.00000401.
    const closed = await suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSD",
      side: "SELL",
      type: "MARKET",
      quantity: "10",
      reduceOnly: true,
    });
    expect(closed.data).toMatchObject({ status: "FILLED", avgPrice: "49990.0" });
    const [last] = (await suite.call<FuturesTrade[]>(cookie, "GET", `${F}/trades?family=coin`)).data;
    expect(last?.realisedPnl).toBe("-0.00000401");
    expect(await positions(cookie)).toEqual([]);
    acct = await coinAccount(cookie);
    expect(sats(acct.wallet)).toBe(sats("0.1") - fee - sats(last?.fee ?? "x") - 401n);
    expect(acct.isolatedMargin).toBe("0.00000000");
    // The family filter of the records pages.
    const usdtHistory = (await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/history?family=usdt`))
      .data;
    expect(usdtHistory).toEqual([]);
    const coinHistory = (await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/history?family=coin`))
      .data;
    expect(coinHistory.map((o) => o.symbol)).toEqual(["BTCUSD", "BTCUSD"]);
    const [closedRecord] = (
      await suite.call<{ entryPrice: string; closePrice: string; marginCoin: string; realisedPnl: string }[]>(
        cookie,
        "GET",
        `${F}/positions/history?family=coin`,
      )
    ).data;
    expect(closedRecord).toMatchObject({
      marginCoin: "BTC",
      entryPrice: "50000.0",
      closePrice: "49990.0",
      realisedPnl: "-0.00000401",
    });

    // And back to spot.
    const out = await suite.call<FuturesAccount>(cookie, "POST", `${F}/transfer`, {
      direction: "OUT",
      asset: "BTC",
      amount: acct.wallet,
    });
    expect(out.data.wallet).toBe("0.00000000");
    await expectConserved(suite.run.ledger);
  });

  it("fires a BTCUSD stop on the mark and cancels the position's TP and reduce-only orders", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await funded();
    await buy10(cookie);
    const tpsl = await suite.call<FuturesOrder[]>(cookie, "POST", `${F}/positions/tpsl`, {
      symbol: "BTCUSD",
      takeProfit: "60000.0",
      stopLoss: "45000.0",
    });
    expect(tpsl.data.map((o) => o.type)).toEqual(["TAKE_PROFIT_MARKET", "STOP_MARKET"]);
    const place = (body: Record<string, unknown>) =>
      suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
        symbol: "BTCUSD",
        type: "LIMIT",
        ...body,
      });
    const reduce = await place({ side: "SELL", quantity: "5", price: "70000.0", reduceOnly: true });
    expect(reduce.data.status).toBe("NEW");
    // An opening limit sets BTC margin aside: 1 contract at 40,000 = 0.0025 BTC, / 20.
    const before = await coinAccount(cookie);
    const opening = await place({ side: "BUY", quantity: "1", price: "40000.0" });
    expect(opening.data.status).toBe("NEW");
    const after = await coinAccount(cookie);
    expect(sats(before.available) - sats(after.available)).toBeGreaterThanOrEqual(12_500n);
    expect((await positions(cookie))[0]).toMatchObject({ takeProfit: "60000.0", stopLoss: "45000.0" });

    await suite.run.futures.pinMark("BTCUSD", "44000.0");
    expect(await positions(cookie)).toEqual([]);
    const history = (await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/history?family=coin`)).data;
    expect(history.find((o) => o.type === "STOP_MARKET")).toMatchObject({
      status: "FILLED",
      avgPrice: "49990.0",
    });
    expect(history.find((o) => o.type === "TAKE_PROFIT_MARKET")).toMatchObject({
      status: "CANCELED",
      reason: "POSITION_CLOSED",
    });
    expect(history.find((o) => o.id === reduce.data.id)).toMatchObject({ status: "CANCELED" });
    const open = (await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/open?family=coin`)).data;
    expect(open.map((o) => o.id)).toEqual([opening.data.id]);
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    expect((await suite.call(cookie, "DELETE", `${F}/orders/${opening.data.id}`)).code).toBe(Code.OK);
    await expectConserved(suite.run.ledger);
  });

  it("holds a long and a short BTCUSD in hedge mode", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await funded();
    expect((await suite.call(cookie, "POST", `${F}/position-mode`, { dualSidePosition: true })).code).toBe(
      Code.OK,
    );
    for (const [side, positionSide] of [
      ["BUY", "LONG"],
      ["SELL", "SHORT"],
    ] as const) {
      const r = await suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
        symbol: "BTCUSD",
        side,
        positionSide,
        type: "MARKET",
        quantity: "4",
      });
      expect(r.code).toBe(Code.OK);
    }
    const held = await positions(cookie);
    expect(held.map((p) => [p.positionSide, p.quantity])).toEqual([
      ["LONG", "4"],
      ["SHORT", "-4"],
    ]);
    expect((await suite.call(cookie, "POST", `${F}/positions/close-all`, { symbol: "BTCUSD" })).code).toBe(
      Code.OK,
    );
    expect(await positions(cookie)).toEqual([]);
    await expectConserved(suite.run.ledger);
  });

  it("pays funding in BTC", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await funded();
    await buy10(cookie);
    const before = sats((await coinAccount(cookie)).wallet);
    await suite.run.futures.settleFunding();
    const [rec] = (await suite.call<FundingRecord[]>(cookie, "GET", `${F}/funding?family=coin`)).data;
    expect(rec).toMatchObject({ symbol: "BTCUSD", marginCoin: "BTC", markPrice: "50000.0" });
    // Worked example 7: 0.02 BTC x the rate, the payer's share rounded up.
    const rateE8 = sats(rec?.rate ?? "x");
    const raw = 2_000_000n * rateE8;
    const expected = raw >= 0n ? -((raw + 99_999_999n) / 100_000_000n) : -(raw / 100_000_000n);
    expect(sats(rec?.amount ?? "x")).toBe(expected);
    expect(sats((await coinAccount(cookie)).wallet)).toBe(before + expected);
    await expectConserved(suite.run.ledger);
  });

  it("liquidates an isolated BTCUSD long into the BTC insurance fund", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await funded();
    await openIsolatedLong(cookie);
    const fund = async () =>
      sats((await suite.call<InsuranceFund>(cookie, "GET", `${F}/insurance-fund?asset=BTC`)).data.balance);
    const fundBefore = await fund();
    // Below the liquidation price 47,809.6.
    await suite.run.futures.pinMark("BTCUSD", "47800.0");
    expect(await positions(cookie)).toEqual([]);
    const [liq] = (await suite.call<FuturesTrade[]>(cookie, "GET", `${F}/trades?family=coin`)).data;
    expect(liq).toMatchObject({ liquidation: true, price: "47800.0", realisedPnl: "-0.00100000" });
    // The fund keeps what the margin had left at 47,800: 0.001 + 0.02 - 1,000 / 47,800, rounded.
    expect((await fund()) - fundBefore).toBe(7_949n);
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    await expectConserved(suite.run.ledger);
  });

  it("liquidates a cross BTCUSD long with the BTC wallet behind it", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await activated();
    const t = await suite.call(cookie, "POST", `${F}/transfer`, {
      direction: "IN",
      asset: "BTC",
      amount: "0.002",
    });
    expect(t.code).toBe(Code.OK);
    await buy10(cookie);
    const [pos] = await positions(cookie);
    const wallet = sats((await coinAccount(cookie)).wallet);
    // Cross: (W + 0.02) x P = 1,000 x 1.004 with W the wallet after the fee, rounded up.
    // In ticks of 0.1 USD: 10 x 1,004 x 10^8 / (W + 2,000,000 satoshi), up to the tick.
    const num = 10n * 1_004n * 100_000_000n;
    const den = wallet + 2_000_000n;
    const lp = (num + den - 1n) / den;
    expect(pos?.liquidationPrice).toBe(`${lp / 10n}.${lp % 10n}`);
    await suite.run.futures.pinMark("BTCUSD", "45000.0");
    expect(await positions(cookie)).toEqual([]);
    const [liq] = (await suite.call<FuturesTrade[]>(cookie, "GET", `${F}/trades?family=coin`)).data;
    expect(liq).toMatchObject({ liquidation: true, price: "45000.0" });
    expect((await coinAccount(cookie)).wallet).toBe("0.00000000");
    // The USDT-M wallet is not touched by the BTC one's liquidation.
    expect((await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data.marginCoin).toBe("USDT");
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    await expectConserved(suite.run.ledger);
  });

  it("rebuilds a BTCUSD position, its wallet and an open order after a restart", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await funded();
    await buy10(cookie);
    // At another mark, with a resting order holding BTC margin.
    await suite.run.futures.pinMark("BTCUSD", "60000.0");
    const limit = await suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSD",
      side: "BUY",
      type: "LIMIT",
      price: "40000.0",
      quantity: "3",
    });
    expect(limit.data.status).toBe("NEW");
    const before = await positions(cookie);
    const account = await coinAccount(cookie);
    await suite.restart();
    await suite.run.futures.pinMark("BTCUSD", "60000.0");
    expect(await positions(cookie)).toEqual(before);
    expect(await coinAccount(cookie)).toEqual(account);
    const open = (await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/open?family=coin`)).data;
    expect(open.map((o) => o.id)).toEqual([limit.data.id]);
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    await expectConserved(suite.run.ledger);
  });

  it("refuses a BTCUSD order the wallet cannot carry, a fraction of a contract, a price off tick", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await activated();
    const place = (body: Record<string, unknown>) =>
      suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, { symbol: "BTCUSD", side: "BUY", ...body });
    const empty = await place({ type: "MARKET", quantity: "10" });
    expect(empty.code).toBe(FuturesCode.MARGIN_INSUFFICIENT);
    expect(empty.data).toMatchObject({ asset: "BTC", available: "0" });
    const t = await suite.call(cookie, "POST", `${F}/transfer`, {
      direction: "IN",
      asset: "BTC",
      amount: "0.01",
    });
    expect(t.code).toBe(Code.OK);
    const half = await place({ type: "MARKET", quantity: "0.5" });
    expect(half.code).toBe(FuturesCode.ORDER_INVALID);
    expect(half.data).toMatchObject({ field: "quantity" });
    const none = await place({ type: "MARKET", quantity: "0" });
    expect(none.code).toBe(FuturesCode.ORDER_INVALID);
    const offTick = await place({ type: "LIMIT", quantity: "1", price: "49000.05" });
    expect(offTick.code).toBe(FuturesCode.ORDER_INVALID);
    expect(offTick.data).toMatchObject({ field: "price" });
    // Nothing held or posted.
    expect((await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/open`)).data).toEqual([]);
    expect((await coinAccount(cookie)).wallet).toBe("0.01000000");
    const notCoin = await suite.call(cookie, "POST", `${F}/transfer`, {
      direction: "IN",
      asset: "TRX",
      amount: "1",
    });
    expect(notCoin.code).toBe(Code.VALIDATION_FAILED);
    await expectConserved(suite.run.ledger);
  });
});

import {
  Code,
  type FundingRecord,
  type FuturesAccount,
  FuturesCode,
  type FuturesOrder,
  type FuturesPosition,
  type FuturesTrade,
  type InsuranceFund,
  type PositionMarginInfo,
} from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { futuresSuite } from "../../test/futures.ts";
import { expectConserved } from "../../test/paper.ts";

const targets = reopenableDbTargets("futures");

const F = "/v1/paper/futures";

describe.each(targets)("futures on $name", (target) => {
  const suite = futuresSuite(target);

  const { funded } = suite;

  it("opens a 10x long; PnL and ROE follow the mark; TP fires on the mark", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    expect(
      (await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSDT", leverage: 10 })).code,
    ).toBe(Code.OK);
    const placed = await suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.100",
    });
    expect(placed.data).toMatchObject({ status: "FILLED", executedQty: "0.100", avgPrice: "50000.0" });
    let acct = (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data;
    expect(acct.wallet).toBe("9997.50000000");

    await suite.run.futures.pinMark("BTCUSDT", "51000.0");
    const [pos] = (await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data;
    expect(pos).toMatchObject({
      quantity: "0.100",
      entryPrice: "50000.000",
      markPrice: "51000.0",
      unrealisedPnl: "100.00000000",
      roe: "20.00",
      leverage: 10,
      marginMode: "cross",
    });
    // 10,000 USDT of cross wallet behind a 5,000 notional long: no price above zero liquidates it.
    expect(pos?.liquidationPrice).toBeNull();

    const tpsl = await suite.call<FuturesOrder[]>(cookie, "POST", `${F}/positions/tpsl`, {
      symbol: "BTCUSDT",
      takeProfit: "52000.0",
      stopLoss: "48000.0",
    });
    expect(tpsl.data.map((o) => o.type)).toEqual(["TAKE_PROFIT_MARKET", "STOP_MARKET"]);
    const withTp = (await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data[0];
    expect(withTp).toMatchObject({ takeProfit: "52000.0", stopLoss: "48000.0" });

    await suite.run.futures.pinMark("BTCUSDT", "52000.0");
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data).toEqual([]);
    const trades = (await suite.call<FuturesTrade[]>(cookie, "GET", `${F}/trades`)).data;
    // Closed against the book's bid at 49,990: -1 USDT, fee 2.4995 rounded up.
    expect(trades[0]).toMatchObject({
      side: "SELL",
      price: "49990.0",
      realisedPnl: "-1.00000000",
      fee: "2.49950000",
    });
    // The stop-loss leg protected a position that no longer exists: cancelled with it.
    expect((await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/open`)).data).toEqual([]);
    const history = (await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/history`)).data;
    expect(history.find((o) => o.type === "STOP_MARKET")?.status).toBe("CANCELED");
    acct = (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data;
    expect(acct.wallet).toBe("9994.00050000");
    await expectConserved(suite.run.ledger);
  });

  it("changes a cross position's leverage while the margin allows; refuses it on isolated", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    const lev = (leverage: number) =>
      suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSDT", leverage });
    expect((await lev(10)).code).toBe(Code.OK);
    // 1 BTC at 50,000: 5,000 initial margin at 10x from a 10,000 wallet.
    const placed = await suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "1.000",
    });
    expect(placed.data.status).toBe("FILLED");
    const position = async () =>
      (await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data[0];
    expect((await lev(20)).code).toBe(Code.OK);
    expect(await position()).toMatchObject({ leverage: 20, margin: "2500.00000000" });
    // 1x would need 50,000 of margin.
    expect((await lev(1)).code).toBe(FuturesCode.MARGIN_INSUFFICIENT);
    expect((await position())?.leverage).toBe(20);
    expect((await lev(8)).code).toBe(Code.OK);
    expect(await position()).toMatchObject({ leverage: 8, margin: "6250.00000000" });
    await suite.call(cookie, "POST", `${F}/positions/close-all`, { symbol: "BTCUSDT" });
    await suite.call(cookie, "POST", `${F}/margin-mode`, { symbol: "BTCUSDT", marginMode: "isolated" });
    await suite.call(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.100",
    });
    expect((await lev(10)).code).toBe(FuturesCode.SETTING_LOCKED);
    await suite.call(cookie, "POST", `${F}/positions/close-all`, { symbol: "BTCUSDT" });
    await expectConserved(suite.run.ledger);
  });

  it("liquidates an isolated long past its liquidation price; the insurance fund keeps the rest", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    await suite.call(cookie, "POST", `${F}/margin-mode`, { symbol: "BTCUSDT", marginMode: "isolated" });
    await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSDT", leverage: 20 });
    const placed = await suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.100",
    });
    expect(placed.data.status).toBe("FILLED");
    const [pos] = (await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data;
    expect(pos).toMatchObject({
      margin: "250.00000000",
      liquidationPrice: "47690.8",
      marginMode: "isolated",
    });
    const fundBefore = BigInt(
      (await suite.call<InsuranceFund>("", "GET", `${F}/insurance-fund`)).data.balance.replace(".", ""),
    );
    await suite.run.futures.pinMark("BTCUSDT", "47700.0");
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data.length).toBe(1);
    await suite.run.futures.pinMark("BTCUSDT", "47600.0");
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data).toEqual([]);
    const fundAfter = BigInt(
      (await suite.call<InsuranceFund>("", "GET", `${F}/insurance-fund`)).data.balance.replace(".", ""),
    );
    // Margin 250 + PnL at 47,600 (-240) = 10 USDT to the fund.
    expect(fundAfter - fundBefore).toBe(1_000_000_000n);
    const trades = (await suite.call<FuturesTrade[]>(cookie, "GET", `${F}/trades`)).data;
    expect(trades[0]).toMatchObject({ liquidation: true, price: "47600.0", realisedPnl: "-250.00000000" });
    await expectConserved(suite.run.ledger);
  });

  it("adjusts isolated margin: adds from the wallet, reduces down to the initial margin, moves the liquidation price", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    await suite.call(cookie, "POST", `${F}/margin-mode`, { symbol: "BTCUSDT", marginMode: "isolated" });
    await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSDT", leverage: 20 });
    await suite.call(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.100",
    });
    const margin = `${F}/positions/margin`;
    // Wallet 10,000 - margin 250 - fee 2.5; nothing above the initial margin at 50,000.
    let info = (await suite.call<PositionMarginInfo>(cookie, "GET", `${margin}?symbol=BTCUSDT`)).data;
    expect(info).toMatchObject({
      margin: "250.00000000",
      maxAdd: "9747.50000000",
      maxRemove: "0.00000000",
      liquidationPrice: "47690.8",
      after: null,
    });
    info = (
      await suite.call<PositionMarginInfo>(cookie, "GET", `${margin}?symbol=BTCUSDT&type=ADD&amount=150`)
    ).data;
    expect(info.after).toEqual({ margin: "400.00000000", liquidationPrice: "46184.8" });

    const added = await suite.call<FuturesPosition>(cookie, "POST", margin, {
      symbol: "BTCUSDT",
      type: "ADD",
      amount: "150",
    });
    expect(added.code).toBe(Code.OK);
    expect(added.data).toMatchObject({ margin: "400.00000000", liquidationPrice: "46184.8" });
    let acct = (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data;
    expect(acct).toMatchObject({ wallet: "9597.50000000", isolatedMargin: "400.00000000" });

    // At 49,000: loss 100, initial margin 245: 400 - 100 - 245 = 55 may leave.
    await suite.run.futures.pinMark("BTCUSDT", "49000.0");
    info = (await suite.call<PositionMarginInfo>(cookie, "GET", `${margin}?symbol=BTCUSDT`)).data;
    expect(info.maxRemove).toBe("55.00000000");
    const over = await suite.call(cookie, "POST", margin, {
      symbol: "BTCUSDT",
      type: "REDUCE",
      amount: "55.01",
    });
    expect(over).toMatchObject({ code: FuturesCode.MARGIN_REDUCE_EXCEEDS, data: { max: "55.00000000" } });
    const tooMuch = await suite.call(cookie, "POST", margin, {
      symbol: "BTCUSDT",
      type: "ADD",
      amount: "20000",
    });
    expect(tooMuch).toMatchObject({ code: FuturesCode.MARGIN_INSUFFICIENT, data: { max: "9597.50000000" } });
    const wrongSide = await suite.call(cookie, "POST", margin, {
      symbol: "BTCUSDT",
      positionSide: "SHORT",
      type: "ADD",
      amount: "1",
    });
    expect(wrongSide.code).toBe(FuturesCode.NOT_ISOLATED);
    expect(
      (await suite.call(cookie, "POST", margin, { symbol: "BTCUSDT", type: "ADD", amount: "0" })).code,
    ).toBe(FuturesCode.ORDER_INVALID);

    const reduced = await suite.call<FuturesPosition>(cookie, "POST", margin, {
      symbol: "BTCUSDT",
      type: "REDUCE",
      amount: "55",
    });
    expect(reduced.data).toMatchObject({ margin: "345.00000000" });
    acct = (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data;
    expect(acct).toMatchObject({ wallet: "9652.50000000", isolatedMargin: "345.00000000" });
    await suite.call(cookie, "POST", `${F}/positions/close-all`, { symbol: "BTCUSDT" });
    await expectConserved(suite.run.ledger);
  });

  it("refuses a margin change on a cross position", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    await suite.call(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.010",
    });
    const r = await suite.call(cookie, "POST", `${F}/positions/margin`, {
      symbol: "BTCUSDT",
      type: "ADD",
      amount: "10",
    });
    expect(r.code).toBe(FuturesCode.NOT_ISOLATED);
    expect((await suite.call(cookie, "GET", `${F}/positions/margin?symbol=BTCUSDT`)).code).toBe(
      FuturesCode.NOT_ISOLATED,
    );
  });

  it("hedge mode holds a long and a short on one symbol; the mode is locked while they are open", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    const mode = (dual: boolean) =>
      suite.call<{ dualSidePosition: boolean }>(cookie, "POST", `${F}/position-mode`, {
        dualSidePosition: dual,
      });
    expect((await mode(true)).data).toEqual({ dualSidePosition: true });
    const order = (side: "BUY" | "SELL", positionSide: string) =>
      suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, {
        symbol: "BTCUSDT",
        side,
        positionSide,
        type: "MARKET",
        quantity: "0.010",
      });
    expect((await order("BUY", "BOTH")).code).toBe(FuturesCode.ORDER_INVALID);
    expect((await order("BUY", "LONG")).data.status).toBe("FILLED");
    expect((await order("SELL", "SHORT")).data.status).toBe("FILLED");
    const both = (await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data;
    expect(both.map((p) => [p.positionSide, p.quantity]).sort()).toEqual([
      ["LONG", "0.010"],
      ["SHORT", "-0.010"],
    ]);
    expect((await mode(false)).code).toBe(FuturesCode.SETTING_LOCKED);
    // Close Long is a SELL on the LONG side; it leaves the short alone.
    expect((await order("SELL", "LONG")).data.status).toBe("FILLED");
    const left = (await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data;
    expect(left.map((p) => p.positionSide)).toEqual(["SHORT"]);
    expect((await order("BUY", "SHORT")).data.status).toBe("FILLED");
    expect((await mode(false)).data).toEqual({ dualSidePosition: false });
    await expectConserved(suite.run.ledger);
  });

  it("settles funding: a long pays and the record carries the sign", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    await suite.call(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.100",
    });
    const before = (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data.wallet;
    expect(before).toBe("9997.50000000");
    await suite.run.futures.settleFunding();
    const records = (await suite.call<FundingRecord[]>(cookie, "GET", `${F}/funding`)).data;
    expect(records[0]).toMatchObject({ symbol: "BTCUSDT", rate: "0.00010000", amount: "-0.50000000" });
    expect((await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data.wallet).toBe(
      "9997.00000000",
    );
    await expectConserved(suite.run.ledger);
  });

  it("refuses without margin, keeps leverage within the brackets, and guards transfers", async () => {
    const cookie = await funded();
    const big = await suite.call(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "5.000",
    });
    expect(big.code).toBe(FuturesCode.MARGIN_INSUFFICIENT);
    expect(
      (await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "SOLUSDT", leverage: 100 })).code,
    ).toBe(FuturesCode.LEVERAGE_TOO_HIGH);
    expect(
      (await suite.call(cookie, "POST", `${F}/transfer`, { direction: "OUT", amount: "10000.5" })).code,
    ).toBe(FuturesCode.TRANSFER_EXCEEDS);
    const out = await suite.call<FuturesAccount>(cookie, "POST", `${F}/transfer`, {
      direction: "OUT",
      amount: "4000",
    });
    expect(out.data.wallet).toBe("6000.00000000");
  });

  it("opens the next position with the leverage and margin mode set after the last one closed", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    const order = { symbol: "BTCUSDT", type: "MARKET", quantity: "0.100" };
    await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSDT", leverage: 10 });
    expect((await suite.call(cookie, "POST", `${F}/orders`, { ...order, side: "BUY" })).data).toMatchObject({
      status: "FILLED",
    });
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data[0]).toMatchObject({
      leverage: 10,
      marginMode: "cross",
    });
    await suite.call(cookie, "POST", `${F}/positions/tpsl`, {
      symbol: "BTCUSDT",
      takeProfit: "60000.0",
      stopLoss: "40000.0",
    });
    await suite.call(cookie, "POST", `${F}/orders`, { ...order, side: "SELL", reduceOnly: true });
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data).toEqual([]);
    // Its TP/SL went with the position, so nothing locks the settings.
    expect((await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/open`)).data).toEqual([]);

    const mode = await suite.call(cookie, "POST", `${F}/margin-mode`, {
      symbol: "BTCUSDT",
      marginMode: "isolated",
    });
    expect(mode.code).toBe(Code.OK);
    expect(
      (await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSDT", leverage: 20 })).code,
    ).toBe(Code.OK);
    await suite.call(cookie, "POST", `${F}/orders`, { ...order, side: "BUY" });
    // 5,000 notional at 20x isolated: 250 of margin, not the closed position's 10x cross.
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data[0]).toMatchObject({
      leverage: 20,
      marginMode: "isolated",
      margin: "250.00000000",
    });
    await suite.call(cookie, "POST", `${F}/positions/tpsl`, { symbol: "BTCUSDT", stopLoss: "45000.0" });
    // Closed by the close-all market order, as the positions table's Close does.
    await suite.call(cookie, "POST", `${F}/positions/close-all`, { symbol: "BTCUSDT" });
    expect((await suite.call<FuturesOrder[]>(cookie, "GET", `${F}/orders/open`)).data).toEqual([]);

    // The same after a restart, where the closed position comes back from storage.
    await suite.call(cookie, "POST", `${F}/margin-mode`, { symbol: "BTCUSDT", marginMode: "cross" });
    await suite.restart();
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    await suite.call(cookie, "POST", `${F}/leverage`, { symbol: "BTCUSDT", leverage: 5 });
    await suite.call(cookie, "POST", `${F}/orders`, { ...order, side: "SELL" });
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data[0]).toMatchObject({
      quantity: "-0.100",
      leverage: 5,
      marginMode: "cross",
    });
    await expectConserved(suite.run.ledger);
  });

  it("rebuilds positions and orders on restart", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    await suite.call(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.050",
    });
    await suite.call(cookie, "POST", `${F}/orders`, {
      symbol: "BTCUSDT",
      side: "BUY",
      type: "LIMIT",
      price: "45000.0",
      quantity: "0.010",
    });
    const positions = (await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data;
    const account = (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data;
    await suite.restart();
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data).toEqual(positions);
    expect((await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data).toEqual(account);
    expect(suite.run.futures.engine.open.size).toBeGreaterThan(0);
    await expectConserved(suite.run.ledger);
  });
});

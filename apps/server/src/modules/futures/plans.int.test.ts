import { Code, type FuturesAccount, type FuturesOrder, type FuturesPosition } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { futuresSuite } from "../../test/futures.ts";
import { expectConserved, makerQuote } from "../../test/paper.ts";

/**
 * Limit plans and trailing stops on the futures engine (`plans.ts`): each fires on the
 * mark at the price its rule names, not a tick before, and keeps its state over a restart.
 */
const targets = reopenableDbTargets("futures-plans");
const F = "/v1/paper/futures";

describe.each(targets)("futures trigger plans on $name", (target) => {
  const suite = futuresSuite(target);

  const { funded } = suite;
  const order = async (cookie: string, id: number) =>
    (await suite.call<{ order: FuturesOrder }>(cookie, "GET", `${F}/orders/${id}`)).data.order;
  const place = (cookie: string, body: Record<string, unknown>) =>
    suite.call<FuturesOrder>(cookie, "POST", `${F}/orders`, { symbol: "BTCUSDT", ...body });

  it("a trailing stop follows the best mark once activated and fires at the callback from it", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    expect((await place(cookie, { side: "BUY", type: "MARKET", quantity: "0.100" })).data.status).toBe(
      "FILLED",
    );
    const trail = await place(cookie, {
      side: "SELL",
      type: "TRAILING_STOP_MARKET",
      stopPrice: "51000.0",
      callbackRate: "2",
      quantity: "0.100",
      reduceOnly: true,
    });
    expect(trail.data).toMatchObject({ status: "NEW", stopPrice: "51000.0", callbackRate: "2" });
    const id = trail.data.id;
    // Not activated: 2% below the best (50,500) is passed, but the best never reached 51,000.
    await suite.run.futures.pinMark("BTCUSDT", "50500.0");
    await suite.run.futures.pinMark("BTCUSDT", "49000.0");
    expect((await order(cookie, id)).status).toBe("NEW");
    // Activated at 52,000: fires at 52,000 x 0.98 = 50,960.0 and not a tick above.
    await suite.run.futures.pinMark("BTCUSDT", "52000.0");
    await suite.run.futures.pinMark("BTCUSDT", "50960.1");
    expect((await order(cookie, id)).status).toBe("NEW");
    // Restarted: the best mark seen (52,000) is kept.
    await suite.restart();
    await suite.run.futures.pinMark("BTCUSDT", "50960.0");
    const fired = await order(cookie, id);
    expect(fired).toMatchObject({ status: "FILLED", executedQty: "0.100", avgPrice: "49990.0" });
    expect(fired.triggerTime).toBeGreaterThan(0);
    expect((await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions`)).data).toEqual([]);
    await expectConserved(suite.run.ledger);
  });

  it("a buy trailing stop tracks the lowest mark and fires the callback above it", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    const id = (
      await place(cookie, {
        side: "BUY",
        type: "TRAILING_STOP_MARKET",
        stopPrice: "50000.0",
        callbackRate: "1.5",
        quantity: "0.010",
      })
    ).data.id;
    await suite.run.futures.pinMark("BTCUSDT", "48000.0");
    // 48,000 x 1.015 = 48,720.0
    await suite.run.futures.pinMark("BTCUSDT", "48719.9");
    expect((await order(cookie, id)).status).toBe("NEW");
    await suite.run.futures.pinMark("BTCUSDT", "48720.0");
    expect(await order(cookie, id)).toMatchObject({ status: "FILLED", executedQty: "0.010" });
  });

  it("refuses a trailing stop without a callback in (0, 10] percent", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    for (const callbackRate of ["0", "10.5", "0.00001"]) {
      const r = await place(cookie, {
        side: "SELL",
        type: "TRAILING_STOP_MARKET",
        stopPrice: "51000.0",
        callbackRate,
        quantity: "0.010",
      });
      expect(r.code).not.toBe(Code.OK);
    }
  });

  it("a stop-limit fires at its trigger, then rests as a limit at its price and fills when the book crosses it", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    const plan = await place(cookie, {
      side: "BUY",
      type: "STOP_LIMIT",
      stopPrice: "50500.0",
      price: "49995.0",
      quantity: "0.010",
    });
    expect(plan.data).toMatchObject({ status: "NEW", price: "49995.0", stopPrice: "50500.0" });
    const id = plan.data.id;
    await suite.run.futures.pinMark("BTCUSDT", "50499.9");
    expect((await order(cookie, id)).triggerTime).toBeUndefined();
    const before = (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data;
    await suite.run.futures.pinMark("BTCUSDT", "50500.0");
    // The ask (50,000) is above its price: it rests, and now holds margin as a limit does.
    const resting = await order(cookie, id);
    expect(resting).toMatchObject({ status: "NEW", executedQty: "0.000", type: "STOP_LIMIT" });
    expect(resting.triggerTime).toBeGreaterThan(0);
    const after = (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account`)).data;
    expect(Number(after.available)).toBeLessThan(Number(before.available));
    // Back below the trigger it does not wait again: the book moving to its price fills it.
    await suite.run.futures.pinMark("BTCUSDT", "49000.0");
    makerQuote(suite.run.venue, "BTCUSDT", "SELL", "49995.00", "1");
    await suite.run.futures.pinMark("BTCUSDT", "49000.1");
    await expect.poll(async () => (await order(cookie, id)).status).toBe("FILLED");
    expect((await order(cookie, id)).avgPrice).toBe("49995.0");
    await expectConserved(suite.run.ledger);
  });

  it("a take-profit-limit sell fires on a rise and takes the bid down to its price", async () => {
    await suite.run.futures.pinMark("BTCUSDT", "50000.0");
    const cookie = await funded();
    await place(cookie, { side: "BUY", type: "MARKET", quantity: "0.010" });
    const id = (
      await place(cookie, {
        side: "SELL",
        type: "TAKE_PROFIT_LIMIT",
        stopPrice: "51000.0",
        price: "49980.0",
        quantity: "0.010",
        reduceOnly: true,
      })
    ).data.id;
    await suite.run.futures.pinMark("BTCUSDT", "50999.9");
    expect((await order(cookie, id)).status).toBe("NEW");
    await suite.run.futures.pinMark("BTCUSDT", "51000.0");
    expect(await order(cookie, id)).toMatchObject({ status: "FILLED", executedQty: "0.010" });
  });
});

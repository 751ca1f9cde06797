import {
  Code,
  type FuturesAccount,
  FuturesPath,
  type FuturesPosition,
  type FuturesStreamPush,
} from "@meridian/contracts";
import { beforeAll, describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { futuresSuite } from "../../test/futures.ts";

const targets = reopenableDbTargets("futures-stream");
const F = "/v1/paper/futures";
/** A push's condition not met by then fails the test (the stream ticks every second). */
const WITHIN_MS = 10_000;

/** `/v1/ws/futures` of one user over a real socket: every push kept, waited on by condition. */
interface Stream {
  pushes: FuturesStreamPush[];
  /** The first push from index `from` on that `match` accepts. */
  next<T extends FuturesStreamPush>(match: (m: FuturesStreamPush) => m is T, from?: number): Promise<T>;
  close(): void;
}

function openStream(base: string, cookie: string): Promise<Stream> {
  const pushes: FuturesStreamPush[] = [];
  const waiters = new Set<() => void>();
  // Node's WebSocket (undici) takes headers: the session cookie, as a browser sends it.
  const ws = new WebSocket(`${base.replace("http", "ws")}${FuturesPath.WS}`, {
    headers: { cookie, origin: base },
  } as unknown as string[]);
  ws.onmessage = (m) => {
    pushes.push(JSON.parse(String(m.data)) as FuturesStreamPush);
    for (const w of waiters) w();
  };
  const stream: Stream = {
    pushes,
    next: (match, from = 0) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const hit = pushes.slice(from).find(match);
          if (hit === undefined) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(hit);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no such push within ${WITHIN_MS} ms`));
        }, WITHIN_MS);
        waiters.add(check);
        check();
      }),
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.onopen = () => resolve(stream);
    ws.onerror = () => reject(new Error("socket failed"));
  });
}

type AccountPush = Extract<FuturesStreamPush, { event: "account" }>;
type PositionsPush = Extract<FuturesStreamPush, { event: "positions" }>;
const walletOf =
  (coin: string, test: (a: FuturesAccount) => boolean = () => true) =>
  (m: FuturesStreamPush): m is AccountPush =>
    m.event === "account" && m.data.marginCoin === coin && test(m.data);
const isMarks = (m: FuturesStreamPush): m is Extract<FuturesStreamPush, { event: "marks" }> =>
  m.event === "marks";
const coinAccounts = (pushes: readonly FuturesStreamPush[]) =>
  pushes.filter((m): m is AccountPush => m.event === "account" && m.data.family === "coin");

// The coin-M page follows the same stream as the USDT-M one (issue 34): its wallet, its
// positions with PnL at the mark, its orders and fills, without a reload.
describe.each(targets)("the futures stream with coin-M wallets on $name", (target) => {
  const suite = futuresSuite(target);
  let base: string;
  beforeAll(async () => {
    await suite.run.app.listen({ port: 0, host: "127.0.0.1" });
    const address = suite.run.app.server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    base = `http://127.0.0.1:${address.port}`;
  });

  const coinAccount = async (cookie: string) =>
    (await suite.call<FuturesAccount>(cookie, "GET", `${F}/account?marginCoin=BTC`)).data;

  it("pushes the BTC wallet, BTCUSD positions, orders and fills; a USDT-M user sees no coin wallet", async () => {
    await suite.run.futures.pinMark("BTCUSD", "50000.0");
    const cookie = await suite.activated();
    const stream = await openStream(base, cookie);
    try {
      // Before any BTC is in the coin-M wallet: the USDT-M wallet alone, tick after tick.
      await stream.next(walletOf("USDT"));
      const firstTick = stream.pushes.length;
      await stream.next(isMarks, firstTick);
      await stream.next(walletOf("USDT"), stream.pushes.length);
      expect(coinAccounts(stream.pushes)).toEqual([]);

      // The transfer's commit pushes the BTC wallet at once.
      let from = stream.pushes.length;
      const t = await suite.call(cookie, "POST", `${F}/transfer`, {
        direction: "IN",
        asset: "BTC",
        amount: "0.1",
      });
      expect(t.code).toBe(Code.OK);
      const funded = await stream.next(walletOf("BTC"), from);
      expect(funded.data).toMatchObject({ family: "coin", wallet: "0.10000000" });

      // An order placed elsewhere (the bot API, another tab): its order, fill, the wallet
      // with the margin and the position arrive from the commit.
      from = stream.pushes.length;
      const placed = await suite.call(cookie, "POST", `${F}/orders`, {
        symbol: "BTCUSD",
        side: "BUY",
        type: "MARKET",
        quantity: "10",
      });
      expect(placed.code).toBe(Code.OK);
      const order = await stream.next(
        (m): m is Extract<FuturesStreamPush, { event: "order" }> => m.event === "order",
        from,
      );
      expect(order.data).toMatchObject({ symbol: "BTCUSD", family: "coin", status: "FILLED" });
      const fill = await stream.next(
        (m): m is Extract<FuturesStreamPush, { event: "fill" }> => m.event === "fill",
        from,
      );
      expect(fill.data).toMatchObject({ symbol: "BTCUSD", marginCoin: "BTC", quantity: "10" });
      const held = await stream.next(
        (m): m is PositionsPush => m.event === "positions" && m.data.some((p) => p.symbol === "BTCUSD"),
        from,
      );
      // The commit's push comes before the next tick's: the same commit's wallet is there too.
      const commitIndex = stream.pushes.indexOf(held);
      const commitWallet = stream.pushes.slice(from, commitIndex).filter(walletOf("BTC")).at(-1);
      expect(commitWallet?.data.wallet).not.toBe("0.10000000");
      const rest = await suite.call<FuturesPosition[]>(cookie, "GET", `${F}/positions?family=coin`);
      expect(held.data.find((p) => p.symbol === "BTCUSD")).toMatchObject({
        quantity: "10",
        marginCoin: "BTC",
        entryPrice: rest.data[0]?.entryPrice,
      });

      // The mark moves: the tick pushes the wallet's unrealised PnL in BTC as REST reads it.
      await suite.run.futures.pinMark("BTCUSD", "55000.0");
      const expected = await coinAccount(cookie);
      expect(Number(expected.unrealisedPnl)).toBeGreaterThan(0);
      const moved = await stream.next(
        walletOf("BTC", (a) => a.unrealisedPnl === expected.unrealisedPnl),
        stream.pushes.length,
      );
      expect(moved.data).toEqual(expected);
      const pnl = await stream.next(
        (m): m is PositionsPush =>
          m.event === "positions" && m.data.some((p) => p.symbol === "BTCUSD" && p.markPrice === "55000.0"),
        stream.pushes.length,
      );
      expect(pnl.data.find((p) => p.symbol === "BTCUSD")?.unrealisedPnl).toBe(expected.unrealisedPnl);

      // Closed and emptied: the BTC wallet is pushed once more at zero, then no longer.
      expect((await suite.call(cookie, "POST", FuturesPath.CLOSE_ALL, { symbol: "BTCUSD" })).code).toBe(
        Code.OK,
      );
      const left = await coinAccount(cookie);
      expect(
        (
          await suite.call(cookie, "POST", `${F}/transfer`, {
            direction: "OUT",
            asset: "BTC",
            amount: left.maxTransferOut,
          })
        ).code,
      ).toBe(Code.OK);
      const zero = await stream.next(
        walletOf("BTC", (a) => a.wallet === "0.00000000"),
        stream.pushes.length,
      );
      const after = stream.pushes.indexOf(zero) + 1;
      await stream.next(isMarks, after);
      const later = stream.pushes.length;
      await stream.next(isMarks, later);
      await stream.next(walletOf("USDT"), later);
      expect(coinAccounts(stream.pushes.slice(later))).toEqual([]);

      // In and straight out again (between two ticks, as often as not): the commit's push
      // showed 0.05 BTC, so the zero follows.
      const move = (direction: "IN" | "OUT") =>
        suite.call(cookie, "POST", `${F}/transfer`, { direction, asset: "BTC", amount: "0.05" });
      expect((await move("IN")).code).toBe(Code.OK);
      expect((await move("OUT")).code).toBe(Code.OK);
      const shown = await stream.next(
        walletOf("BTC", (a) => a.wallet === "0.05000000"),
        later,
      );
      await stream.next(
        walletOf("BTC", (a) => a.wallet === "0.00000000"),
        stream.pushes.indexOf(shown) + 1,
      );
    } finally {
      stream.close();
      await suite.run.futures.pinMark("BTCUSD", null);
    }
  }, 60_000);
});

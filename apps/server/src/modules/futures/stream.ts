import { type FuturesAccount, FuturesPath, type FuturesStreamPush } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { accountSockets, type PushSocket } from "../../platform/http/account-sockets.ts";
import type { SessionAccount } from "../ledger/index.ts";
import type { Writer } from "../writer/index.ts";
import type { FuturesApi } from "./index.ts";
import type { FuturesEvents } from "./service.ts";

const TICK_MS = 1_000;

/** The coin-M wallets among a commit's pushes (their JSON texts, as the writer publishes them). */
function coinWalletsIn(texts: readonly string[]): string[] {
  const coins: string[] = [];
  for (const t of texts) {
    if (!t.startsWith('{"event":"account"')) continue;
    const m = JSON.parse(t) as { data: FuturesAccount };
    if (m.data.family === "coin") coins.push(m.data.marginCoin);
  }
  return coins;
}

/**
 * `/v1/ws/futures`: marks for everyone each second; for a logged-in user (session
 * cookie) the wallets and positions each second (PnL follows the mark) and orders,
 * fills and funding after each commit. Wallets: the USDT-M one (`account`), then one
 * `account` push per coin-M wallet in use (money, a position or an open order in that
 * coin); a coin-M wallet that falls out of use is pushed once more (its zero) by the next
 * tick. Positions: both families (each page keeps its own).
 */
export function futuresStream(
  app: FastifyInstance,
  futures: FuturesApi,
  writer: Writer | undefined,
  sessionAccount: SessionAccount,
): void {
  /** The coin-M wallets each logged-in socket was sent. */
  const coinsOf = new WeakMap<PushSocket, Set<string>>();
  const sockets = accountSockets<PushSocket>(app, {
    stream: "futures",
    fanOut: writer,
    // The coin-M wallets a commit pushed are this socket's too: the tick pushes their zero.
    delivered: (socket, texts) => {
      const coins = coinsOf.get(socket);
      if (coins !== undefined) for (const c of coinWalletsIn(texts)) coins.add(c);
    },
  });
  const send = (socket: PushSocket, m: FuturesStreamPush) => sockets.send(socket, JSON.stringify(m));
  const off = futures.onEvents((e: FuturesEvents) => {
    const messages: FuturesStreamPush[] = [
      ...e.orders.map((data) => ({ event: "order" as const, data })),
      ...e.fills.map((data) => ({ event: "fill" as const, data })),
      ...e.funding.map((data) => ({ event: "funding" as const, data })),
      { event: "account", data: e.account },
      ...e.coinWallets.map((data) => ({ event: "account" as const, data })),
      { event: "positions", data: e.positions },
    ];
    sockets.push(
      e.accountId,
      messages.map((m) => JSON.stringify(m)),
    );
  });
  // The account and positions views are the writer's (on another instance, asked over the bus).
  const tick = async () => {
    if (sockets.all.size === 0) return;
    const marks = JSON.stringify({
      event: "marks",
      data: await futures.marksList(),
    } satisfies FuturesStreamPush);
    for (const s of sockets.all) {
      if (!sockets.send(s, marks)) continue;
      const id = sockets.accountOf(s);
      if (id !== undefined) await sendAccount(s, id);
    }
  };
  /** The wallets (USDT-M, then each coin-M one in use) and the positions of a logged-in socket. */
  const sendAccount = async (s: PushSocket, id: number) => {
    send(s, { event: "account", data: await futures.account(id) });
    for (const a of await coinWallets(s, id)) send(s, { event: "account", data: a });
    send(s, { event: "positions", data: await futures.positions(id) });
  };
  /** The coin-M wallets in use, and once more each one this socket was sent that is no longer. */
  const coinWallets = async (s: PushSocket, id: number): Promise<FuturesAccount[]> => {
    const used = await futures.coinWalletsInUse(id);
    const now = new Set(used.map((a) => a.marginCoin));
    const left = [...(coinsOf.get(s) ?? [])].filter((c) => !now.has(c));
    const dropped = await Promise.all(left.map((c) => futures.account(id, c)));
    coinsOf.set(s, now);
    return [...used, ...dropped];
  };
  let ticking = false;
  const timer = setInterval(() => {
    if (ticking) return;
    ticking = true;
    tick()
      .catch(() => {})
      .finally(() => {
        ticking = false;
      });
  }, TICK_MS);
  timer.unref();
  app.addHook("preClose", async () => {
    off();
    clearInterval(timer);
  });

  app.get(FuturesPath.WS, { websocket: true }, (raw, request) => {
    const socket = raw as unknown as PushSocket;
    sockets.add(socket);
    void (async () => {
      try {
        send(socket, { event: "marks", data: await futures.marksList() });
        const id = await sessionAccount(request);
        coinsOf.set(socket, new Set());
        if (!sockets.login(socket, id)) return;
        await sendAccount(socket, id);
      } catch {
        // Anonymous visitors still get the marks.
      }
    })();
  });
}

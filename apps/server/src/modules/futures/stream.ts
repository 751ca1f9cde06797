import { FuturesPath, type FuturesStreamPush, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { readCookie } from "../accounts/index.ts";
import type { Writer } from "../writer/index.ts";
import type { FuturesApi } from "./index.ts";
import type { FuturesEvents } from "./service.ts";

const OPEN = 1;
const TICK_MS = 1_000;
const MAX_BUFFERED = 4 * 1024 * 1024;

interface Socket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: "message", fn: (data: unknown) => void): void;
  on(event: "close", fn: () => void): void;
  on(event: "error", fn: (error: Error) => void): void;
}

/**
 * `/v1/ws/futures`: marks for everyone each second; for a logged-in user (session
 * cookie) the account and positions each second (PnL follows the mark) and orders,
 * fills and funding after each commit.
 */
export function futuresStream(app: FastifyInstance, futures: FuturesApi, writer: Writer | undefined): void {
  const sockets = new Map<Socket, number | null>();
  const send = (s: Socket, m: FuturesStreamPush) => {
    if (s.readyState !== OPEN) return;
    if (s.bufferedAmount > MAX_BUFFERED) return s.close(1008, "too slow");
    s.send(JSON.stringify(m));
  };
  const fansOut = writer?.fansOut === true;
  const deliver = (accountId: number, texts: readonly string[]) => {
    for (const [s, id] of sockets) {
      if (id !== accountId || s.readyState !== OPEN) continue;
      if (s.bufferedAmount > MAX_BUFFERED) {
        s.close(1008, "too slow");
        continue;
      }
      for (const t of texts) s.send(t);
    }
  };
  // Several instances: the writer publishes every account's pushes (docs/architecture.md).
  const offRemote = writer?.onStream("futures", deliver) ?? (() => false);
  // Pushes were missed here: the clients reconnect and load the account again.
  const offGap =
    writer?.onGap(() => {
      for (const [s, id] of sockets) if (id !== null) s.close(1012, "resync");
    }) ?? (() => false);
  const off = futures.onEvents((e: FuturesEvents) => {
    const messages: FuturesStreamPush[] = [
      ...e.orders.map((data) => ({ event: "order" as const, data })),
      ...e.fills.map((data) => ({ event: "fill" as const, data })),
      ...e.funding.map((data) => ({ event: "funding" as const, data })),
      { event: "account", data: e.account },
      { event: "positions", data: e.positions },
    ];
    const texts = messages.map((m) => JSON.stringify(m));
    deliver(e.accountId, texts);
    if (fansOut) writer?.publish("futures", e.accountId, texts);
  });
  // The account and positions views are the writer's (on another instance, asked over the bus).
  const tick = async () => {
    if (sockets.size === 0) return;
    const marks = JSON.stringify({
      event: "marks",
      data: await futures.marksList(),
    } satisfies FuturesStreamPush);
    for (const [s, id] of sockets) {
      if (s.readyState !== OPEN) continue;
      s.send(marks);
      if (id !== null) {
        send(s, { event: "account", data: await futures.account(id) });
        send(s, { event: "positions", data: await futures.positions(id) });
      }
    }
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
    offRemote();
    offGap();
    clearInterval(timer);
    for (const s of sockets.keys()) s.close(1001, "server closing");
  });

  app.get(FuturesPath.WS, { websocket: true }, (raw, request) => {
    const socket = raw as unknown as Socket;
    sockets.set(socket, null);
    socket.on("message", (data) => {
      const text = typeof data === "string" ? data : String(data);
      if (text.includes('"ping"')) send(socket, { event: "pong", time: Date.now() });
    });
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {});
    void (async () => {
      try {
        send(socket, { event: "marks", data: await futures.marksList() });
        const { user } = await app.accounts.service.authenticate(readCookie(request, SESSION_COOKIE));
        const { id } = await app.ledger.accountFor(user.id);
        if (!sockets.has(socket)) return;
        sockets.set(socket, id);
        send(socket, { event: "account", data: await futures.account(id) });
        send(socket, { event: "positions", data: await futures.positions(id) });
      } catch {
        // Anonymous visitors still get the marks.
      }
    })();
  });
}

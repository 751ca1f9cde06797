import { FuturesPath, type FuturesStreamPush, SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { readCookie } from "../accounts/index.ts";
import type { FuturesEvents, FuturesService } from "./service.ts";

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
export function futuresStream(app: FastifyInstance, futures: FuturesService): void {
  const sockets = new Map<Socket, number | null>();
  const send = (s: Socket, m: FuturesStreamPush) => {
    if (s.readyState !== OPEN) return;
    if (s.bufferedAmount > MAX_BUFFERED) return s.close(1008, "too slow");
    s.send(JSON.stringify(m));
  };
  const off = futures.onEvents((e: FuturesEvents) => {
    for (const [s, id] of sockets) {
      if (id !== e.accountId) continue;
      for (const data of e.orders) send(s, { event: "order", data });
      for (const data of e.fills) send(s, { event: "fill", data });
      for (const data of e.funding) send(s, { event: "funding", data });
      send(s, { event: "account", data: e.account });
      send(s, { event: "positions", data: e.positions });
    }
  });
  const timer = setInterval(() => {
    if (sockets.size === 0) return;
    const marks = JSON.stringify({ event: "marks", data: futures.marksList() } satisfies FuturesStreamPush);
    for (const [s, id] of sockets) {
      if (s.readyState !== OPEN) continue;
      s.send(marks);
      if (id !== null) {
        send(s, { event: "account", data: futures.account(id) });
        send(s, { event: "positions", data: futures.positions(id) });
      }
    }
  }, TICK_MS);
  timer.unref();
  app.addHook("preClose", async () => {
    off();
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
    send(socket, { event: "marks", data: futures.marksList() });
    void (async () => {
      try {
        const { user } = await app.accounts.service.authenticate(readCookie(request, SESSION_COOKIE));
        const { id } = await app.paper.accountFor(user.id);
        if (!sockets.has(socket)) return;
        sockets.set(socket, id);
        send(socket, { event: "account", data: futures.account(id) });
        send(socket, { event: "positions", data: futures.positions(id) });
      } catch {
        // Anonymous visitors still get the marks.
      }
    })();
  });
}

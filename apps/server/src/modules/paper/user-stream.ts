import { PaperPath, type UserStreamPush } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { accountSockets, type PushSocket, WS_OPEN } from "../../platform/http/account-sockets.ts";
import type { LedgerApi, SessionAccount } from "../ledger/index.ts";
import type { Writer } from "../writer/index.ts";
import type { UserEvents } from "./events.ts";
import type { PaperApi } from "./index.ts";

const HEARTBEAT_MS = 20_000;

/** A socket of this stream: the shared one, with the protocol ping of the heartbeat. */
interface Socket extends PushSocket {
  ping(): void;
  terminate(): void;
  on(event: "message", fn: (data: unknown) => void): void;
  on(event: "pong" | "close", fn: () => void): void;
  on(event: "error", fn: (error: Error) => void): void;
}

/**
 * `/v1/ws/user`: the logged-in user's order updates, fills and balances, pushed after
 * each commit, and other modules' pushes for the user (margin: `LedgerService.push`). Authenticated by the session cookie on the upgrade request (browsers
 * cannot add headers to a WebSocket, so no `paptrading` header is required here).
 */
export function paperUserStream(
  app: FastifyInstance,
  paper: PaperApi,
  ledger: LedgerApi,
  writer: Writer | undefined,
  sessionAccount: SessionAccount,
): void {
  const sockets = accountSockets<Socket>(app, { stream: "user", fanOut: writer });
  const off = paper.onEvents((e: UserEvents) => {
    if (!sockets.wanted(e.accountId)) return;
    const messages: UserStreamPush[] = [
      ...e.orders.map((data) => ({ event: "order" as const, data })),
      ...e.fills.map((data) => ({ event: "fill" as const, data })),
      ...(e.balances === null ? [] : [{ event: "balance" as const, data: e.balances }]),
    ];
    sockets.push(
      e.accountId,
      messages.map((m) => JSON.stringify(m)),
    );
  });
  const offPush = ledger.onPush((accountId, messages) => {
    if (!sockets.wanted(accountId)) return;
    sockets.push(
      accountId,
      messages.map((m) => JSON.stringify(m)),
    );
  });
  app.addHook("preClose", async () => {
    off();
    offPush();
  });

  app.get(PaperPath.WS, { websocket: true }, (raw, request) => {
    const socket = raw as unknown as Socket;
    const send = (m: UserStreamPush) => sockets.send(socket, JSON.stringify(m));
    let alive = true;
    const timer = setInterval(() => {
      if (!alive) return socket.terminate();
      alive = false;
      socket.ping();
      send({ event: "ping", time: Date.now() });
    }, HEARTBEAT_MS);
    timer.unref();
    socket.on("pong", () => {
      alive = true;
    });
    socket.on("close", () => clearInterval(timer));
    sockets.add(socket, () => {
      alive = true;
    });
    void (async () => {
      try {
        const id = await sessionAccount(request);
        if (socket.readyState !== WS_OPEN || !sockets.login(socket, id)) return;
        send({ event: "balance", data: await paper.balances(id) });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        send({ event: "error", code: typeof code === "string" ? code : "10401", msg: "Please log in" });
        socket.close(4401, "unauthenticated");
      }
    })();
  });
}

import { PaperPath, SESSION_COOKIE, type UserStreamPush } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { readCookie } from "../accounts/index.ts";
import type { LedgerApi } from "../ledger/index.ts";
import type { Writer } from "../writer/index.ts";
import type { UserEvents } from "./events.ts";
import type { PaperApi } from "./index.ts";

const OPEN = 1;
const HEARTBEAT_MS = 20_000;
/** A client this far behind is closed rather than buffered without end. */
const MAX_BUFFERED = 4 * 1024 * 1024;

interface Socket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  ping(): void;
  close(code?: number, reason?: string): void;
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
): void {
  const byAccount = new Map<number, Set<Socket>>();
  const fansOut = writer?.fansOut === true;
  const deliver = (accountId: number, texts: readonly string[]) => {
    const sockets = byAccount.get(accountId);
    if (sockets === undefined) return;
    for (const s of sockets) {
      if (s.readyState !== OPEN) continue;
      if (s.bufferedAmount > MAX_BUFFERED) {
        s.close(1008, "too slow");
        continue;
      }
      for (const t of texts) s.send(t);
    }
  };
  // Several instances: the writer publishes every account's pushes, each instance
  // delivers them to its own sockets (docs/architecture.md).
  const offRemote = writer?.onStream("user", deliver) ?? (() => false);
  // Pushes were missed here: the clients reconnect and reload their lists.
  const offGap =
    writer?.onGap(() => {
      for (const set of byAccount.values()) for (const s of set) s.close(1012, "resync");
    }) ?? (() => false);
  const send = (accountId: number, texts: readonly string[]) => {
    deliver(accountId, texts);
    if (fansOut) writer?.publish("user", accountId, texts);
  };
  const off = paper.onEvents((e: UserEvents) => {
    if (!fansOut && !byAccount.has(e.accountId)) return;
    const messages: UserStreamPush[] = [
      ...e.orders.map((data) => ({ event: "order" as const, data })),
      ...e.fills.map((data) => ({ event: "fill" as const, data })),
      ...(e.balances === null ? [] : [{ event: "balance" as const, data: e.balances }]),
    ];
    send(
      e.accountId,
      messages.map((m) => JSON.stringify(m)),
    );
  });
  const offPush = ledger.onPush((accountId, messages) => {
    if (!fansOut && !byAccount.has(accountId)) return;
    send(
      accountId,
      messages.map((m) => JSON.stringify(m)),
    );
  });
  app.addHook("preClose", async () => {
    off();
    offPush();
    offRemote();
    offGap();
    for (const set of byAccount.values()) for (const s of set) s.close(1001, "server closing");
  });

  app.get(PaperPath.WS, { websocket: true }, (raw, request) => {
    const socket = raw as unknown as Socket;
    const send = (m: UserStreamPush) => {
      if (socket.readyState === OPEN) socket.send(JSON.stringify(m));
    };
    let accountId: number | undefined;
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
    socket.on("message", (data) => {
      alive = true;
      const text = typeof data === "string" ? data : String(data);
      if (text.includes('"ping"')) send({ event: "pong", time: Date.now() });
    });
    socket.on("close", () => {
      clearInterval(timer);
      if (accountId !== undefined) byAccount.get(accountId)?.delete(socket);
    });
    socket.on("error", () => {});
    void (async () => {
      try {
        const { user } = await app.accounts.service.authenticate(readCookie(request, SESSION_COOKIE));
        const { id } = await ledger.accountFor(user.id);
        accountId = id;
        let set = byAccount.get(id);
        if (set === undefined) {
          set = new Set();
          byAccount.set(id, set);
        }
        if (socket.readyState !== OPEN) return;
        set.add(socket);
        send({ event: "balance", data: await paper.balances(id) });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        send({ event: "error", code: typeof code === "string" ? code : "10401", msg: "Please log in" });
        socket.close(4401, "unauthenticated");
      }
    })();
  });
}

import type { FastifyInstance } from "fastify";

/** What an account push stream uses of a `ws` socket. */
export interface PushSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: "message", fn: (data: unknown) => void): void;
  on(event: "close", fn: () => void): void;
  on(event: "error", fn: (error: Error) => void): void;
}

/**
 * How pushes cross instances (the writer module's `Writer`): the writer publishes each
 * commit's pushes, every instance delivers them to its own sockets, and a follower that
 * may have missed some hears `onGap`.
 */
export interface PushFanOut {
  /** True when pushes must go to other instances too. */
  readonly fansOut: boolean;
  publish(stream: string, accountId: number, texts: readonly string[]): void;
  onStream(stream: string, listener: (accountId: number, texts: readonly string[]) => void): () => void;
  onGap(listener: () => void): () => void;
}

/** `WebSocket.OPEN`. */
export const WS_OPEN = 1;
/** A client this far behind is closed rather than buffered without end. */
const MAX_BUFFERED = 4 * 1024 * 1024;

/** The sockets of one account push stream (`/v1/ws/user`, `/v1/ws/futures`). */
export interface AccountSockets<S extends PushSocket> {
  /** Every socket this instance holds, logged in or not. */
  readonly all: ReadonlySet<S>;
  /** Holds a socket (anonymous until `login`) until it closes; answers its `ping` messages. */
  add(socket: S, onMessage?: (text: string) => void): void;
  /** The socket hears `accountId`'s pushes from now on; false when it closed meanwhile. */
  login(socket: S, accountId: number): boolean;
  /** The account a socket logged in as. */
  accountOf(socket: S): number | undefined;
  /** Whether a push for the account reaches anyone: a socket here, or other instances. */
  wanted(accountId: number): boolean;
  /** A commit's pushes for one account: this instance's sockets, and the others' through the writer. */
  push(accountId: number, texts: readonly string[]): void;
  /** Sends one text to one socket; a socket too far behind is closed (1008). False when not sent. */
  send(socket: S, text: string): boolean;
}

/**
 * The part every account push stream shares: the sockets by account, the back-pressure
 * limit, the pushes that cross instances (`PushFanOut`: delivered here from the writer's
 * `stream`, published there when this instance fans out), a resync close (1012) of the
 * logged-in sockets after a gap, the `{"op":"ping"}` answer, and closing every socket
 * (1001) when the server does. `delivered` hears each logged-in socket that received an
 * account's pushes (futures: the coin-M wallets it was sent).
 */
export function accountSockets<S extends PushSocket>(
  app: FastifyInstance,
  options: {
    stream: string;
    fanOut: PushFanOut | undefined;
    delivered?: (socket: S, texts: readonly string[]) => void;
  },
): AccountSockets<S> {
  const { stream, fanOut, delivered } = options;
  const all = new Set<S>();
  const accountOf = new Map<S, number>();
  const byAccount = new Map<number, Set<S>>();
  const fansOut = fanOut?.fansOut === true;

  const send = (socket: S, text: string): boolean => {
    if (socket.readyState !== WS_OPEN) return false;
    if (socket.bufferedAmount > MAX_BUFFERED) {
      socket.close(1008, "too slow");
      return false;
    }
    socket.send(text);
    return true;
  };
  const deliver = (accountId: number, texts: readonly string[]) => {
    for (const socket of byAccount.get(accountId) ?? []) {
      if (socket.readyState !== WS_OPEN) continue;
      if (socket.bufferedAmount > MAX_BUFFERED) {
        socket.close(1008, "too slow");
        continue;
      }
      for (const t of texts) socket.send(t);
      delivered?.(socket, texts);
    }
  };
  const drop = (socket: S) => {
    all.delete(socket);
    const id = accountOf.get(socket);
    if (id === undefined) return;
    accountOf.delete(socket);
    const set = byAccount.get(id);
    set?.delete(socket);
    if (set?.size === 0) byAccount.delete(id);
  };

  // Several instances: the writer publishes every account's pushes, each instance
  // delivers them to its own sockets (docs/architecture.md).
  const offRemote = fanOut?.onStream(stream, deliver) ?? (() => {});
  // Pushes were missed here: the clients reconnect and load their views again.
  const offGap =
    fanOut?.onGap(() => {
      for (const socket of accountOf.keys()) socket.close(1012, "resync");
    }) ?? (() => {});
  app.addHook("preClose", async () => {
    offRemote();
    offGap();
    for (const socket of all) socket.close(1001, "server closing");
  });

  return {
    all,
    add(socket, onMessage) {
      all.add(socket);
      socket.on("message", (data) => {
        const text = typeof data === "string" ? data : String(data);
        onMessage?.(text);
        if (text.includes('"ping"')) send(socket, JSON.stringify({ event: "pong", time: Date.now() }));
      });
      socket.on("close", () => drop(socket));
      socket.on("error", () => {});
    },
    login(socket, accountId) {
      if (!all.has(socket)) return false;
      accountOf.set(socket, accountId);
      let set = byAccount.get(accountId);
      if (set === undefined) {
        set = new Set();
        byAccount.set(accountId, set);
      }
      set.add(socket);
      return true;
    },
    accountOf: (socket) => accountOf.get(socket),
    wanted: (accountId) => fansOut || byAccount.has(accountId),
    push(accountId, texts) {
      deliver(accountId, texts);
      if (fansOut) fanOut?.publish(stream, accountId, texts);
    },
    send,
  };
}

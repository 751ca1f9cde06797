import type { ResolvedKey } from "./keys.ts";

/** What the hub uses of a `ws` socket. */
export interface Socket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: "message", fn: (data: unknown) => void): void;
  on(event: "close", fn: () => void): void;
}

export interface Arg {
  instType: string;
  channel: string;
  instId: string;
  coin?: string;
}

export interface Conn {
  socket: Socket;
  ip: string;
  subs: Map<string, Arg>;
  /** `books` subscriptions: the levels last sent, by side, price -> size. */
  books: Map<string, { bids: Map<string, string>; asks: Map<string, string> }>;
  key: ResolvedKey | undefined;
  accountId: number | undefined;
  window: { start: number; count: number };
}

export const argKey = (a: Arg) => `${a.instType}|${a.channel}|${a.instId}`;

export function send(c: Conn, message: unknown): void {
  if (c.socket.readyState === 1)
    c.socket.send(typeof message === "string" ? message : JSON.stringify(message));
}

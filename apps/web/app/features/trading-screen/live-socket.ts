/**
 * A WebSocket that stays up: reconnects with capped, jittered exponential backoff,
 * re-sends its subscriptions after every reconnect, answers the server's heartbeat
 * and sends its own `{"op":"ping"}` so a silently dead link is noticed and replaced.
 */

export type SocketStatus = "connecting" | "open" | "closed";

/** What the class uses of a WebSocket (injected so tests drive a fake). */
export interface SocketLike {
  readyState: number;
  onopen: ((ev: unknown) => void) | null;
  onclose: ((ev: unknown) => void) | null;
  onerror: ((ev: unknown) => void) | null;
  onmessage: ((ev: { data: unknown }) => void) | null;
  send(data: string): void;
  close(code?: number, reason?: string): void;
}

export interface LiveSocketOptions {
  url: string;
  onMessage: (message: unknown) => void;
  onStatus?: (status: SocketStatus) => void;
  /** Streams to subscribe after each open (market stream); none for the user stream. */
  subscribeOp?: boolean;
  create?: (url: string) => SocketLike;
  minDelayMs?: number;
  maxDelayMs?: number;
  /** Our ping interval; a link silent for three of them is closed and reopened. */
  pingMs?: number;
  random?: () => number;
  timers?: {
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (id: unknown) => void;
    setInterval: (fn: () => void, ms: number) => unknown;
    clearInterval: (id: unknown) => void;
  };
  now?: () => number;
}

const OPEN = 1;

/** Backoff for the n-th consecutive failure (0-based): min * 2^n capped at max, with "full jitter" above half. */
export function backoffDelay(attempt: number, minMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, minMs * 2 ** Math.min(attempt, 16));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

export class LiveSocket {
  private readonly options: LiveSocketOptions;
  private readonly streams = new Set<string>();
  private socket: SocketLike | undefined;
  private attempt = 0;
  private retryTimer: unknown;
  private pingTimer: unknown;
  private lastSeen = 0;
  private stopped = false;
  status: SocketStatus = "closed";

  constructor(options: LiveSocketOptions) {
    this.options = options;
  }

  private get timers() {
    return (
      this.options.timers ?? {
        setTimeout: (fn: () => void, ms: number) => globalThis.setTimeout(fn, ms),
        clearTimeout: (id: unknown) => globalThis.clearTimeout(id as ReturnType<typeof setTimeout>),
        setInterval: (fn: () => void, ms: number) => globalThis.setInterval(fn, ms),
        clearInterval: (id: unknown) => globalThis.clearInterval(id as ReturnType<typeof setInterval>),
      }
    );
  }

  private now(): number {
    return (this.options.now ?? Date.now)();
  }

  private setStatus(status: SocketStatus): void {
    this.status = status;
    this.options.onStatus?.(status);
  }

  start(): void {
    this.stopped = false;
    if (!this.socket) this.open();
  }

  stop(): void {
    this.stopped = true;
    this.timers.clearTimeout(this.retryTimer);
    this.timers.clearInterval(this.pingTimer);
    const s = this.socket;
    this.socket = undefined;
    if (s) {
      s.onclose = null;
      s.onmessage = null;
      s.onerror = null;
      s.close(1000, "bye");
    }
    this.setStatus("closed");
  }

  subscribe(streams: readonly string[]): void {
    const fresh = streams.filter((s) => !this.streams.has(s));
    for (const s of fresh) this.streams.add(s);
    if (fresh.length > 0) this.sendOp("subscribe", fresh);
  }

  unsubscribe(streams: readonly string[]): void {
    const gone = streams.filter((s) => this.streams.delete(s));
    if (gone.length > 0) this.sendOp("unsubscribe", gone);
  }

  send(message: unknown): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  private sendOp(op: "subscribe" | "unsubscribe", args: string[]): void {
    if (this.options.subscribeOp === false) return;
    this.send({ op, args });
  }

  private open(): void {
    this.setStatus("connecting");
    let socket: SocketLike;
    try {
      socket = (this.options.create ?? ((url) => new WebSocket(url) as unknown as SocketLike))(
        this.options.url,
      );
    } catch {
      this.scheduleRetry();
      return;
    }
    this.socket = socket;
    socket.onopen = () => {
      this.attempt = 0;
      this.lastSeen = this.now();
      this.setStatus("open");
      if (this.streams.size > 0) this.sendOp("subscribe", [...this.streams]);
      const pingMs = this.options.pingMs ?? 15_000;
      this.timers.clearInterval(this.pingTimer);
      this.pingTimer = this.timers.setInterval(() => {
        if (this.now() - this.lastSeen > pingMs * 3) {
          socket.close(4000, "silent");
          this.onClosed(socket);
          return;
        }
        this.send({ op: "ping" });
      }, pingMs);
    };
    socket.onmessage = (ev) => {
      this.lastSeen = this.now();
      let message: unknown;
      try {
        message = JSON.parse(String(ev.data));
      } catch {
        return;
      }
      if (isEvent(message, "ping")) {
        this.send({ op: "pong" });
        return;
      }
      if (isEvent(message, "pong")) return;
      this.options.onMessage(message);
    };
    socket.onerror = () => {
      // The close event that follows schedules the retry.
    };
    socket.onclose = () => this.onClosed(socket);
  }

  private onClosed(socket: SocketLike): void {
    if (this.socket !== socket) return;
    socket.onclose = null;
    socket.onmessage = null;
    this.socket = undefined;
    this.timers.clearInterval(this.pingTimer);
    this.setStatus("closed");
    if (!this.stopped) this.scheduleRetry();
  }

  private scheduleRetry(): void {
    const delay = backoffDelay(
      this.attempt++,
      this.options.minDelayMs ?? 500,
      this.options.maxDelayMs ?? 15_000,
      this.options.random ?? Math.random,
    );
    this.timers.clearTimeout(this.retryTimer);
    this.retryTimer = this.timers.setTimeout(() => {
      if (!this.stopped) this.open();
    }, delay);
  }
}

function isEvent(message: unknown, name: string): boolean {
  return typeof message === "object" && message !== null && (message as { event?: unknown }).event === name;
}

/** `ws(s)://host/path` for the page's own origin. */
export function socketUrl(path: string): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss" : "ws"}://${host}${path}`;
}

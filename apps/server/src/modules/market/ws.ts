import {
  Code,
  type KlineIntervalValue,
  marketStreamSchema,
  WS_DEPTH_LEVELS,
  WS_HEARTBEAT_MS,
  WS_MAX_STREAMS,
  type WsEvent,
  wsClientMessageSchema,
} from "@meridian/contracts";
import type { MarketService, MarketUpdate } from "./service.ts";

/** What the hub uses of a `ws` socket. */
export interface WsSocket {
  readonly readyState: number;
  readonly bufferedAmount: number;
  send(data: string): void;
  ping(): void;
  close(code?: number, reason?: string): void;
  terminate(): void;
  on(event: "message", fn: (data: unknown, isBinary: boolean) => void): void;
  on(event: "pong" | "close", fn: () => void): void;
  on(event: "error", fn: (error: Error) => void): void;
}

const OPEN = 1;

interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * The TCP socket under a `ws` socket (its `_socket`), when there is one. `ws` writes each
 * frame at once, one system call per frame; corked around a flush, a client's pushes of
 * every symbol leave in one (the writes were a tenth of the live feed's CPU in bench:feed).
 */
function transport(socket: WsSocket): Corkable | undefined {
  const t: unknown = (socket as { _socket?: unknown })._socket;
  if (typeof t !== "object" || t === null) return undefined;
  const c = t as Partial<Corkable>;
  return typeof c.cork === "function" && typeof c.uncork === "function" ? (t as Corkable) : undefined;
}

export interface StreamHubOptions {
  heartbeatMs?: number;
  /** Depth pushes are coalesced and flushed this often. */
  depthFlushMs?: number;
  /** Above this many unsent bytes, tickers, klines and trades are dropped and depth waits. */
  softLimitBytes?: number;
  /** Above this, the client is too slow: closed with 1008. */
  hardLimitBytes?: number;
}

interface Conn {
  readonly socket: WsSocket;
  readonly streams: Set<string>;
  readonly dirtyDepth: Set<string>;
  alive: boolean;
  dropped: number;
}

const MAX_MESSAGE_BYTES = 4096;

/**
 * The `/v1/ws/market` fan-out. Each market update is serialised once per stream and
 * sent to that stream's subscribers. Back-pressure: depth is coalesced (a slow client
 * gets the latest book when its buffer drains, never a backlog), tickers, klines and
 * trades are dropped above the soft limit, and a client past the hard limit is closed.
 * Heartbeat: a protocol ping every `heartbeatMs`; a client that has not answered the
 * previous one is terminated. Clients may also send `{"op":"ping"}` (browsers cannot see
 * protocol pings) and get `{"event":"pong"}`.
 */
export class MarketStreamHub {
  private readonly market: MarketService;
  private readonly conns = new Set<Conn>();
  private readonly byStream = new Map<string, Set<Conn>>();
  private readonly softLimit: number;
  private readonly hardLimit: number;
  private readonly stops: Array<() => void> = [];

  constructor(market: MarketService, options: StreamHubOptions = {}) {
    this.market = market;
    this.softLimit = options.softLimitBytes ?? 256 * 1024;
    this.hardLimit = options.hardLimitBytes ?? 4 * 1024 * 1024;
    this.stops.push(market.onUpdate((u) => this.onUpdate(u)));
    this.stops.push(market.onBook((symbol) => this.onBook(symbol)));
    this.stops.push(market.clock.every(options.depthFlushMs ?? 250, () => this.flushDepth()));
    this.stops.push(market.clock.every(options.heartbeatMs ?? WS_HEARTBEAT_MS, () => this.heartbeat()));
  }

  get connections(): number {
    return this.conns.size;
  }

  attach(socket: WsSocket): void {
    const conn: Conn = { socket, streams: new Set(), dirtyDepth: new Set(), alive: true, dropped: 0 };
    this.conns.add(conn);
    socket.on("pong", () => {
      conn.alive = true;
    });
    socket.on("message", (data, isBinary) => {
      conn.alive = true;
      this.onMessage(conn, data, isBinary);
    });
    socket.on("close", () => this.detach(conn));
    socket.on("error", () => this.detach(conn));
  }

  /** Closes every socket (server shutdown) and stops the timers. */
  close(): void {
    for (const stop of this.stops) stop();
    this.stops.length = 0;
    for (const conn of [...this.conns]) {
      conn.socket.close(1001, "server shutting down");
      this.detach(conn);
    }
  }

  private detach(conn: Conn): void {
    if (!this.conns.delete(conn)) return;
    for (const s of conn.streams) this.unindex(conn, s);
  }

  private unindex(conn: Conn, stream: string): void {
    const set = this.byStream.get(stream);
    set?.delete(conn);
    if (set?.size === 0) this.byStream.delete(stream);
  }

  private reply(conn: Conn, event: WsEvent): void {
    this.send(conn, JSON.stringify(event), false);
  }

  /** Sends unless the client is past the limits; returns false when dropped. */
  private send(conn: Conn, text: string, droppable: boolean): boolean {
    const { socket } = conn;
    if (socket.readyState !== OPEN) return false;
    if (socket.bufferedAmount > this.hardLimit) {
      socket.close(1008, "slow consumer");
      this.detach(conn);
      return false;
    }
    if (droppable && socket.bufferedAmount > this.softLimit) {
      conn.dropped++;
      return false;
    }
    socket.send(text);
    return true;
  }

  private onMessage(conn: Conn, data: unknown, isBinary: boolean): void {
    const raw = isBinary ? "" : String(data);
    if (raw.length === 0 || raw.length > MAX_MESSAGE_BYTES) {
      this.reply(conn, {
        event: "error",
        code: Code.VALIDATION_FAILED,
        msg: "Send JSON text messages up to 4 KB",
      });
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      this.reply(conn, { event: "error", code: Code.MALFORMED_JSON, msg: "Malformed JSON" });
      return;
    }
    const parsed = wsClientMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.reply(conn, {
        event: "error",
        code: Code.VALIDATION_FAILED,
        msg: "Expected {op: subscribe|unsubscribe|ping}",
      });
      return;
    }
    const msg = parsed.data;
    const id = "id" in msg && msg.id !== undefined ? { id: msg.id } : {};
    if (msg.op === "ping") {
      this.reply(conn, { event: "pong", time: this.market.clock.now(), ...id });
      return;
    }
    if (msg.op === "pong") return;
    const streams: string[] = [];
    for (const arg of msg.args) {
      const s = marketStreamSchema.safeParse(arg);
      const symbol = s.success ? (s.data.split("@")[1] ?? "") : "";
      if (!s.success || !this.market.has(symbol)) {
        this.reply(conn, {
          event: "error",
          code: Code.VALIDATION_FAILED,
          msg: `Unknown stream ${arg}`,
          ...id,
        });
        return;
      }
      streams.push(s.data);
    }
    if (msg.op === "unsubscribe") {
      for (const s of streams) {
        conn.streams.delete(s);
        conn.dirtyDepth.delete(s);
        this.unindex(conn, s);
      }
      this.reply(conn, { event: "unsubscribed", streams, ...id });
      return;
    }
    const fresh = streams.filter((s) => !conn.streams.has(s));
    if (conn.streams.size + new Set(fresh).size > WS_MAX_STREAMS) {
      this.reply(conn, {
        event: "error",
        code: Code.VALIDATION_FAILED,
        msg: `At most ${WS_MAX_STREAMS} streams`,
        ...id,
      });
      return;
    }
    for (const s of fresh) {
      conn.streams.add(s);
      const set = this.byStream.get(s) ?? new Set<Conn>();
      set.add(conn);
      this.byStream.set(s, set);
    }
    this.reply(conn, { event: "subscribed", streams, ...id });
    // A first snapshot, so a chart or book renders before the next change.
    for (const s of fresh) {
      const text = this.payload(s);
      if (text !== undefined) this.send(conn, text, false);
    }
  }

  /** The current push for a stream (trades have no snapshot: they are events). */
  private payload(stream: string): string | undefined {
    const [kind, symbol = "", interval] = stream.split("@");
    if (kind === "ticker") {
      const data = this.market.ticker(symbol);
      return data && JSON.stringify({ stream, data });
    }
    if (kind === "depth") {
      const data = this.market.depth(symbol, WS_DEPTH_LEVELS);
      return data && JSON.stringify({ stream, data });
    }
    if (kind === "kline" && interval !== undefined) {
      const k = this.market.klines(symbol, interval as KlineIntervalValue, 1)?.[0];
      return k && JSON.stringify({ stream, data: { symbol, interval, ...k } });
    }
    return undefined;
  }

  private broadcast(stream: string, text: string | undefined): void {
    const set = this.byStream.get(stream);
    if (set === undefined || text === undefined) return;
    for (const conn of set) this.send(conn, text, true);
  }

  private onUpdate(update: MarketUpdate): void {
    if (this.byStream.size === 0) return;
    for (const [symbol, trades] of update.trades) {
      const tradeStream = `trades@${symbol}`;
      if (this.byStream.has(tradeStream)) {
        for (const t of trades)
          this.broadcast(tradeStream, JSON.stringify({ stream: tradeStream, data: { symbol, ...t } }));
      }
      const ticker = `ticker@${symbol}`;
      if (this.byStream.has(ticker)) this.broadcast(ticker, this.payload(ticker));
      for (const stream of this.byStream.keys()) {
        if (stream.startsWith(`kline@${symbol}@`)) this.broadcast(stream, this.payload(stream));
      }
      const depth = `depth@${symbol}`;
      for (const conn of this.byStream.get(depth) ?? []) conn.dirtyDepth.add(depth);
    }
  }

  private onBook(symbol: string): void {
    const depth = `depth@${symbol}`;
    for (const conn of this.byStream.get(depth) ?? []) conn.dirtyDepth.add(depth);
  }

  private flushDepth(): void {
    const cache = new Map<string, string | undefined>();
    for (const conn of this.conns) {
      if (conn.dirtyDepth.size === 0 || conn.socket.bufferedAmount > this.softLimit) continue;
      const tcp = conn.dirtyDepth.size > 1 ? transport(conn.socket) : undefined;
      tcp?.cork();
      try {
        for (const stream of conn.dirtyDepth) {
          if (!cache.has(stream)) cache.set(stream, this.payload(stream));
          const text = cache.get(stream);
          if (text !== undefined) this.send(conn, text, false);
        }
      } finally {
        tcp?.uncork();
      }
      conn.dirtyDepth.clear();
    }
  }

  private heartbeat(): void {
    for (const conn of [...this.conns]) {
      if (!conn.alive) {
        conn.socket.terminate();
        this.detach(conn);
        continue;
      }
      conn.alive = false;
      if (conn.socket.readyState === OPEN) conn.socket.ping();
    }
  }
}

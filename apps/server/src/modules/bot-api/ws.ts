import zlib from "node:zlib";
import type { KlineIntervalValue } from "@meridian/contracts";
import { coinPerpContract, PERP_CONTRACTS } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import type { FuturesApi } from "../futures/index.ts";
import type { LedgerApi } from "../ledger/index.ts";
import type { MarginApi } from "../margin/index.ts";
import type { MarketService } from "../market/index.ts";
import type { PaperApi } from "../paper/index.ts";
import { type ApiKeyStore, ipAllowed, type ResolvedKey } from "./keys.ts";
import { COIN_FUTURES, coinMarket, type PublicDeps, tickerBuilders } from "./public.ts";
import { SIGN_WINDOW_MS, verifyHmac, verifyRsa } from "./signature.ts";
import { type Arg, argKey, type Conn, type Socket, send } from "./ws-conn.ts";
import { privateChannelKnown, privateFeeds } from "./ws-private.ts";

/** Bitget's limits: 10 messages a second per connection, 1000 channels (we allow 240). */
const MAX_MSGS_PER_S = 10;
const MAX_SUBS = 240;
const BOOK_DEPTH = 50;
const PUBLIC_CHANNELS = new Set(["ticker", "books", "books1", "books5", "books15", "trade"]);
const CANDLES: Readonly<Record<string, KlineIntervalValue>> = {
  candle1m: "1m",
  candle5m: "5m",
  candle15m: "15m",
  candle30m: "30m",
  candle1H: "1h",
  candle4H: "4h",
  candle1D: "1d",
};
const INST_TYPES = new Set(["SPOT", "USDT-FUTURES", COIN_FUTURES, "MARGIN"]);

/** Bitget's book checksum: signed CRC32 of bid1p:bid1s:ask1p:ask1s:... over the top 25 levels. */
export function bookChecksum(bids: readonly [string, string][], asks: readonly [string, string][]): number {
  const parts: string[] = [];
  for (let i = 0; i < 25; i++) {
    const b = bids[i];
    const a = asks[i];
    if (b !== undefined) parts.push(b[0], b[1]);
    if (a !== undefined) parts.push(a[0], a[1]);
  }
  return zlib.crc32(parts.join(":")) | 0;
}

export interface WsDeps {
  market: MarketService;
  paper: PaperApi;
  /** Margin's pushes reach the user stream through the ledger writer (`push`). */
  ledger: LedgerApi;
  futures: FuturesApi | undefined;
  margin: MarginApi | undefined;
  keys: ApiKeyStore;
  now: () => number;
  account(owner: ResolvedKey["owner"]): Promise<{ accountId: number }>;
  /**
   * Several instances: the writer's pushes (the user and futures streams' JSON texts),
   * for the private channels of sockets on an instance that is not the writer.
   */
  writerStreams?: {
    onStream(stream: string, listener: (accountId: number, texts: readonly string[]) => void): () => void;
    /** Pushes may have been missed: logged-in sockets are closed, the bots log in again. */
    onGap(listener: () => void): () => void;
  };
}

/**
 * The market a public subscription's data comes from: a spot pair or a USDT-M contract
 * its own, a coin-M contract (COIN-FUTURES BTCUSD) its coin against USDT (BTCUSDT), as on
 * the REST market endpoints.
 */
function marketOf(a: Arg): string {
  const coin = a.instType === COIN_FUTURES ? coinPerpContract(a.instId) : undefined;
  return coin === undefined ? a.instId : coinMarket(coin);
}

/**
 * Bitget's v2 WebSocket: `/v2/ws/public` (ticker, books with checksum, books1/5/15, trade,
 * candles) and `/v2/ws/private` (login, then orders, fill, account, positions), pushed
 * from the market feed and from the paper and futures services' commits. Instruments:
 * SPOT pairs, USDT-FUTURES (BTCUSDT) and COIN-FUTURES (BTCUSD) perpetuals, MARGIN.
 */
export function registerBitgetWs(app: FastifyInstance, d: WsDeps): void {
  const conns = new Set<Conn>();
  const pd: PublicDeps = { market: d.market, marks: () => d.futures?.marksList() ?? [], now: d.now };
  const { spotTicker, mixTicker } = tickerBuilders(pd);
  const perps = new Set(PERP_CONTRACTS.map((c) => c.symbol));

  const bookOf = (symbol: string, depth: number) => {
    const b = d.market.depth(symbol, depth);
    return b === undefined
      ? undefined
      : { bids: b.bids as [string, string][], asks: b.asks as [string, string][], ts: String(b.time) };
  };

  const pushBooks = (c: Conn, a: Arg, first: boolean) => {
    const depth = a.channel === "books" ? BOOK_DEPTH : Number(a.channel.slice(5));
    const book = bookOf(marketOf(a), depth);
    if (book === undefined) return;
    const checksum = bookChecksum(book.bids, book.asks);
    if (a.channel !== "books") {
      send(c, { action: "snapshot", arg: a, data: [{ ...book, checksum, seq: d.now() }], ts: d.now() });
      return;
    }
    const k = argKey(a);
    const prev = c.books.get(k);
    const next = { bids: new Map(book.bids), asks: new Map(book.asks) };
    c.books.set(k, next);
    if (first || prev === undefined) {
      send(c, { action: "snapshot", arg: a, data: [{ ...book, checksum, seq: d.now() }], ts: d.now() });
      return;
    }
    const diff = (old: Map<string, string>, now: Map<string, string>) => {
      const out: [string, string][] = [];
      for (const [p, s] of now) if (old.get(p) !== s) out.push([p, s]);
      for (const p of old.keys()) if (!now.has(p)) out.push([p, "0"]);
      return out;
    };
    const bids = diff(prev.bids, next.bids);
    const asks = diff(prev.asks, next.asks);
    if (bids.length === 0 && asks.length === 0) return;
    send(c, {
      action: "update",
      arg: a,
      data: [{ bids, asks, ts: book.ts, checksum, seq: d.now() }],
      ts: d.now(),
    });
  };

  const tickerOf = (a: Arg) => {
    if (a.instType === "SPOT") {
      const t = d.market.ticker(a.instId);
      return t === undefined ? undefined : { instId: a.instId, ...spotTicker(t), open24h: t.openPrice };
    }
    const t = mixTicker(a.instId, marketOf(a));
    return t === undefined ? undefined : { instId: a.instId, ...t };
  };

  const pushCandle = (c: Conn, a: Arg, action: "snapshot" | "update") => {
    const interval = CANDLES[a.channel];
    if (interval === undefined) return;
    const k = d.market.klines(marketOf(a), interval, action === "snapshot" ? 50 : 1) ?? [];
    const data = k.map((x) => [
      String(x.openTime),
      x.open,
      x.high,
      x.low,
      x.close,
      x.volume,
      x.quoteVolume,
      x.quoteVolume,
    ]);
    if (data.length > 0) send(c, { action, arg: a, data, ts: d.now() });
  };

  const initial = (c: Conn, a: Arg) => {
    if (a.channel === "ticker") {
      const t = tickerOf(a);
      if (t !== undefined) send(c, { action: "snapshot", arg: a, data: [t], ts: d.now() });
    } else if (a.channel.startsWith("books")) pushBooks(c, a, true);
    else if (a.channel.startsWith("candle")) pushCandle(c, a, "snapshot");
    else if (a.channel === "trade") {
      const trades = (d.market.trades(marketOf(a), 50) ?? []).map((t) => ({
        ts: String(t.time),
        price: t.price,
        size: t.qty,
        side: t.isBuyerMaker ? "sell" : "buy",
        tradeId: String(t.id),
      }));
      send(c, { action: "snapshot", arg: a, data: trades, ts: d.now() });
    } else feeds.initial(c, a);
  };

  const valid = (c: Conn, a: Arg, priv: boolean): string | undefined => {
    if (!INST_TYPES.has(a.instType)) return `instType:${a.instType} doesn't exist`;
    if (priv) {
      if (!privateChannelKnown(a, d.margin !== undefined)) return `channel:${a.channel} doesn't exist`;
      if (c.key === undefined) return "Please log in first";
      return undefined;
    }
    if (!PUBLIC_CHANNELS.has(a.channel) && CANDLES[a.channel] === undefined)
      return `channel:${a.channel} doesn't exist`;
    const ok =
      a.instType === "SPOT"
        ? d.market.has(a.instId)
        : a.instType === COIN_FUTURES
          ? coinPerpContract(a.instId) !== undefined
          : perps.has(a.instId);
    return ok ? undefined : `instId:${a.instId} doesn't exist`;
  };

  const feeds = privateFeeds(conns, d);

  const offMarket = d.market.onUpdate((update) => {
    for (const c of conns) {
      for (const a of c.subs.values()) {
        if (!PUBLIC_CHANNELS.has(a.channel) && CANDLES[a.channel] === undefined) continue;
        const trades = update.trades.get(marketOf(a));
        if (trades === undefined) continue;
        if (a.channel === "ticker") {
          const t = tickerOf(a);
          if (t !== undefined) send(c, { action: "snapshot", arg: a, data: [t], ts: d.now() });
        } else if (a.channel === "trade") {
          const data = trades.map((t) => ({
            ts: String(t.time),
            price: t.price,
            size: t.qty,
            side: t.isBuyerMaker ? "sell" : "buy",
            tradeId: String(t.id),
          }));
          send(c, { action: "update", arg: a, data, ts: d.now() });
        } else if (a.channel.startsWith("books")) pushBooks(c, a, false);
        else pushCandle(c, a, "update");
      }
    }
  });

  const offGap = d.writerStreams?.onGap(() => {
    for (const c of conns) if (c.accountId !== undefined) c.socket.close(1012, "resync");
  });
  app.addHook("onClose", async () => {
    offGap?.();
    offMarket();
    feeds.close();
    for (const c of conns) c.socket.close(1001, "server closing");
  });

  const login = async (c: Conn, raw: unknown) => {
    const arg = (Array.isArray(raw) ? raw[0] : undefined) as Record<string, unknown> | undefined;
    const fail = (code: number, msg: string) => send(c, { event: "error", code, msg });
    const apiKey = typeof arg?.apiKey === "string" ? arg.apiKey : "";
    const ts =
      typeof arg?.timestamp === "string" || typeof arg?.timestamp === "number" ? String(arg.timestamp) : "";
    const sign = typeof arg?.sign === "string" ? arg.sign : "";
    const passphrase = typeof arg?.passphrase === "string" ? arg.passphrase : "";
    if (!/^\d{10}$/.test(ts) || Math.abs(d.now() - Number(ts) * 1000) > SIGN_WINDOW_MS)
      return fail(30008, "Request timestamp expired");
    const key = await d.keys.resolve(apiKey);
    if (key === undefined || (key.expiresAt !== null && key.expiresAt <= d.now()))
      return fail(30011, "Invalid ACCESS_KEY");
    if (!d.keys.passphraseMatches(key, passphrase)) return fail(30012, "Invalid ACCESS_PASSPHRASE");
    const text = `${ts}GET/user/verify`;
    const ok =
      key.secret !== null
        ? verifyHmac(key.secret, [text], sign)
        : key.rsa !== null && verifyRsa(key.rsa, [text], sign);
    if (!ok) return fail(30015, "Invalid sign");
    if (!ipAllowed(key, c.ip)) return fail(30004, "Invalid IP");
    if (!key.permissions.has("read")) return fail(30004, "Incorrect permissions");
    const account = await d.account(key.owner).catch(() => undefined);
    if (account === undefined) return fail(30004, "The account of this API key is frozen");
    c.key = key;
    c.accountId = account.accountId;
    send(c, { event: "login", code: 0 });
  };

  const attach = (socket: Socket, ip: string, priv: boolean) => {
    const c: Conn = {
      socket,
      ip,
      subs: new Map(),
      books: new Map(),
      key: undefined,
      accountId: undefined,
      window: { start: 0, count: 0 },
    };
    conns.add(c);
    socket.on("close", () => conns.delete(c));
    socket.on("message", (data) => {
      const text = String(data);
      if (text === "ping") return send(c, "pong");
      const now = d.now();
      if (now - c.window.start >= 1_000) c.window = { start: now, count: 0 };
      c.window.count += 1;
      if (c.window.count > MAX_MSGS_PER_S)
        return send(c, { event: "error", code: 30006, msg: "Request too many" });
      let msg: { op?: unknown; args?: unknown };
      try {
        msg = JSON.parse(text) as { op?: unknown; args?: unknown };
      } catch {
        return send(c, { event: "error", code: 30001, msg: "Invalid request" });
      }
      if (msg.op === "login") {
        if (!priv) return send(c, { event: "error", code: 30001, msg: "login is for the private channel" });
        void login(c, msg.args).catch(() => send(c, { event: "error", code: 30001, msg: "login failed" }));
        return;
      }
      if ((msg.op !== "subscribe" && msg.op !== "unsubscribe") || !Array.isArray(msg.args))
        return send(c, { event: "error", code: 30001, msg: "Invalid request" });
      for (const raw of msg.args as unknown[]) {
        const r = (raw ?? {}) as Record<string, unknown>;
        const a: Arg = {
          instType: String(r.instType ?? "").toUpperCase(),
          channel: String(r.channel ?? ""),
          instId: String(r.instId ?? (r.coin === undefined ? "" : "default")),
          ...(r.coin === undefined ? {} : { coin: String(r.coin) }),
        };
        if (msg.op === "unsubscribe") {
          c.subs.delete(argKey(a));
          c.books.delete(argKey(a));
          send(c, { event: "unsubscribe", arg: a });
          continue;
        }
        const problem = valid(c, a, priv);
        if (problem !== undefined) {
          send(c, {
            event: "error",
            arg: a,
            code: problem.startsWith("Please") ? 30002 : 30001,
            msg: problem,
          });
          continue;
        }
        if (c.subs.size >= MAX_SUBS) {
          send(c, { event: "error", arg: a, code: 30007, msg: "Too many channels" });
          continue;
        }
        c.subs.set(argKey(a), a);
        send(c, { event: "subscribe", arg: a });
        initial(c, a);
      }
    });
  };

  app.get("/v2/ws/public", { websocket: true }, (socket, request) =>
    attach(socket as unknown as Socket, request.ip, false),
  );
  app.get("/v2/ws/private", { websocket: true }, (socket, request) =>
    attach(socket as unknown as Socket, request.ip, true),
  );
}

import crypto from "node:crypto";
import zlib from "node:zlib";
import type {
  FuturesOrder,
  FuturesSettings,
  FuturesTrade,
  KlineIntervalValue,
  PaperOrder,
  PaperTrade,
} from "@meridian/contracts";
import { PERP_CONTRACTS } from "@meridian/domain";
import type { FastifyInstance } from "fastify";
import type { FuturesService } from "../futures/index.ts";
import type { MarketService } from "../market/index.ts";
import type { PaperService } from "../paper/index.ts";
import { type ApiKeyStore, ipAllowed, type ResolvedKey } from "./keys.ts";
import { presentMixOrder } from "./mix.ts";
import { type PublicDeps, tickerBuilders } from "./public.ts";
import { SIGN_WINDOW_MS } from "./signature.ts";
import { presentSpotFill, presentSpotOrder } from "./spot.ts";

/** What the hub uses of a `ws` socket. */
interface Socket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: "message", fn: (data: unknown) => void): void;
  on(event: "close", fn: () => void): void;
}

interface Arg {
  instType: string;
  channel: string;
  instId: string;
  coin?: string;
}

interface Conn {
  socket: Socket;
  ip: string;
  subs: Map<string, Arg>;
  /** `books` subscriptions: the levels last sent, by side, price -> size. */
  books: Map<string, { bids: Map<string, string>; asks: Map<string, string> }>;
  key: ResolvedKey | undefined;
  accountId: number | undefined;
  window: { start: number; count: number };
}

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
const PRIVATE_CHANNELS = new Set(["orders", "fill", "account", "positions"]);
const INST_TYPES = new Set(["SPOT", "USDT-FUTURES"]);

const argKey = (a: Arg) => `${a.instType}|${a.channel}|${a.instId}`;

function send(c: Conn, message: unknown): void {
  if (c.socket.readyState === 1)
    c.socket.send(typeof message === "string" ? message : JSON.stringify(message));
}

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
  paper: PaperService;
  futures: FuturesService | undefined;
  keys: ApiKeyStore;
  now: () => number;
  account(owner: ResolvedKey["owner"]): Promise<{ accountId: number }>;
  /**
   * Several instances: the writer's pushes (the user and futures streams' JSON texts),
   * for the private channels of sockets on an instance that is not the writer.
   */
  writerStreams?: {
    onStream(stream: string, listener: (accountId: number, texts: readonly string[]) => void): () => void;
  };
}

/**
 * Bitget's v2 WebSocket: `/v2/ws/public` (ticker, books with checksum, books1/5/15, trade,
 * candles) and `/v2/ws/private` (login, then orders, fill, account, positions), pushed
 * from the market feed and from the paper and futures services' commits.
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
    const book = bookOf(a.instId, depth);
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
    const t = mixTicker(a.instId);
    return t === undefined ? undefined : { instId: a.instId, ...t };
  };

  const pushCandle = (c: Conn, a: Arg, action: "snapshot" | "update") => {
    const interval = CANDLES[a.channel];
    if (interval === undefined) return;
    const k = d.market.klines(a.instId, interval, action === "snapshot" ? 50 : 1) ?? [];
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
      const trades = (d.market.trades(a.instId, 50) ?? []).map((t) => ({
        ts: String(t.time),
        price: t.price,
        size: t.qty,
        side: t.isBuyerMaker ? "sell" : "buy",
        tradeId: String(t.id),
      }));
      send(c, { action: "snapshot", arg: a, data: trades, ts: d.now() });
    } else if (a.channel === "account") void pushAccount(c, a);
    else if (a.channel === "positions") void pushPositions(c, a);
  };

  const valid = (c: Conn, a: Arg, priv: boolean): string | undefined => {
    if (!INST_TYPES.has(a.instType)) return `instType:${a.instType} doesn't exist`;
    if (priv) {
      if (!PRIVATE_CHANNELS.has(a.channel)) return `channel:${a.channel} doesn't exist`;
      if (c.key === undefined) return "Please log in first";
      return undefined;
    }
    if (!PUBLIC_CHANNELS.has(a.channel) && CANDLES[a.channel] === undefined)
      return `channel:${a.channel} doesn't exist`;
    const ok = a.instType === "SPOT" ? d.market.has(a.instId) : perps.has(a.instId);
    return ok ? undefined : `instId:${a.instId} doesn't exist`;
  };

  // ---- private pushes ----------------------------------------------------------------
  const pushAccount = async (c: Conn, a: Arg) => {
    if (c.accountId === undefined) return;
    if (a.instType === "SPOT") {
      const rows = await d.paper.balances(c.accountId);
      const uTime = String(d.now());
      const data = rows
        .filter((b) => a.coin === undefined || a.coin === "default" || b.asset === a.coin)
        .map((b) => ({
          coin: b.asset,
          available: b.available,
          frozen: b.held,
          locked: "0",
          limitAvailable: "0",
          uTime,
        }));
      send(c, { action: "snapshot", arg: a, data, ts: d.now() });
    } else if (d.futures !== undefined) {
      const f = await d.futures.account(c.accountId);
      send(c, {
        action: "snapshot",
        arg: a,
        data: [
          {
            marginCoin: "USDT",
            frozen: "0",
            available: f.wallet,
            maxOpenPosAvailable: f.available,
            maxTransferOut: f.maxTransferOut,
            equity: f.marginBalance,
            usdtEquity: f.marginBalance,
          },
        ],
        ts: d.now(),
      });
    }
  };

  const pushPositions = async (c: Conn, a: Arg) => {
    if (c.accountId === undefined || d.futures === undefined) return;
    const accountId = c.accountId;
    const futures = d.futures;
    const [account, positions] = await Promise.all([
      futures.account(accountId),
      futures.positions(accountId),
    ]);
    const dual = account.dualSidePosition;
    const data = positions
      .filter((p) => !/^-?0(\.0*)?$/.test(p.quantity))
      .map((p) => {
        const qty = p.quantity.replace(/^-/, "");
        return {
          posId: `${p.symbol}-${p.positionSide}`,
          instId: p.symbol,
          marginCoin: "USDT",
          marginSize: p.margin,
          marginMode: p.marginMode === "cross" ? "crossed" : "isolated",
          holdSide:
            p.positionSide === "BOTH"
              ? p.quantity.startsWith("-")
                ? "short"
                : "long"
              : p.positionSide.toLowerCase(),
          posMode: dual ? "hedge_mode" : "one_way_mode",
          total: qty,
          available: qty,
          frozen: "0",
          openPriceAvg: p.entryPrice,
          leverage: String(p.leverage),
          achievedProfits: p.realisedPnl,
          unrealizedPL: p.unrealisedPnl,
          unrealizedPLR: (Number(p.roe) / 100).toFixed(6),
          liquidationPrice: p.liquidationPrice ?? "0",
          keepMarginRate: "0.004",
          marginRate: p.marginRatio === null ? "0" : (Number(p.marginRatio) / 100).toFixed(6),
          cTime: String(d.now()),
          uTime: String(d.now()),
          autoMargin: "off",
        };
      });
    send(c, { action: "snapshot", arg: a, data, ts: d.now() });
  };

  const wsSpotOrder = (o: PaperOrder, c: Conn) => {
    const base = presentSpotOrder(o, c.key?.owner.id ?? "", d.paper.venue.spec(o.symbol)?.priceDecimals ?? 8);
    return {
      ...base,
      instId: o.symbol,
      notional: o.quoteQty ?? o.cummulativeQuoteQty,
      newSize: o.origQty,
      accBaseVolume: o.executedQty,
      feeDetail: [{ feeCoin: o.feeAsset, fee: o.fee === "0" ? "0" : `-${o.fee}` }],
    };
  };

  const privateSubs = (c: Conn, instType: string, channel: string) =>
    [...c.subs.values()].filter((a) => a.instType === instType && a.channel === channel);

  const onSpot = (e: { accountId: number; orders: PaperOrder[]; fills: PaperTrade[]; balances: unknown }) => {
    for (const c of conns) {
      if (c.accountId !== e.accountId) continue;
      for (const a of privateSubs(c, "SPOT", "orders")) {
        const data = e.orders
          .filter((o) => a.instId === "default" || o.symbol === a.instId)
          .map((o) => wsSpotOrder(o, c));
        if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
      }
      for (const a of privateSubs(c, "SPOT", "fill")) {
        const data = e.fills
          .filter((f) => a.instId === "default" || f.symbol === a.instId)
          .map((f) => presentSpotFill(f, c.key?.owner.id ?? ""));
        if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
      }
      if (e.balances !== null) for (const a of privateSubs(c, "SPOT", "account")) void pushAccount(c, a);
    }
  };
  const offPaper = d.paper.onEvents(onSpot);

  const onFutures = (
    e: {
      accountId: number;
      orders: FuturesOrder[];
      fills: FuturesTrade[];
      account: { dualSidePosition: boolean };
    },
    settings: (symbol: string) => FuturesSettings,
  ) => {
    for (const c of conns) {
      if (c.accountId !== e.accountId) continue;
      const dual = e.account.dualSidePosition;
      const ctx = { dual, settings };
      for (const a of privateSubs(c, "USDT-FUTURES", "orders")) {
        const data = e.orders.map((o) => ({
          ...presentMixOrder(o, ctx),
          instId: o.symbol,
          accBaseVolume: o.executedQty,
          fillPrice: o.avgPrice,
        }));
        if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
      }
      for (const a of privateSubs(c, "USDT-FUTURES", "fill")) {
        const data = e.fills.map((t) => ({
          orderId: String(t.orderId),
          tradeId: String(t.id),
          symbol: t.symbol,
          side: t.side.toLowerCase(),
          orderType: "market",
          posMode: dual ? "hedge_mode" : "one_way_mode",
          price: t.price,
          baseVolume: t.quantity,
          quoteVolume: (Number(t.price) * Number(t.quantity)).toFixed(8),
          profit: t.realisedPnl,
          tradeSide: t.side === "BUY" ? "buy_single" : "sell_single",
          tradeScope: t.maker ? "maker" : "taker",
          feeDetail: [{ feeCoin: "USDT", deduction: "no", totalDeductionFee: "0", totalFee: `-${t.fee}` }],
          cTime: String(t.time),
          uTime: String(t.time),
        }));
        if (data.length > 0) send(c, { action: "snapshot", arg: a, data, ts: d.now() });
      }
      for (const a of privateSubs(c, "USDT-FUTURES", "positions")) void pushPositions(c, a);
      for (const a of privateSubs(c, "USDT-FUTURES", "account")) void pushAccount(c, a);
    }
  };
  const futures = d.futures;
  const offFutures = futures?.onEvents((e) =>
    onFutures(e, (symbol) => futures.settings(e.accountId, symbol)),
  );

  // On a follower the engines' events arrive as the writer's stream pushes: rebuilt into
  // the same events for the private channels of this instance's sockets.
  const watched = (accountId: number) => [...conns].some((c) => c.accountId === accountId);
  const parse = (texts: readonly string[]) =>
    texts.map((t) => JSON.parse(t) as { event: string; data: unknown });
  const offRemoteSpot = d.writerStreams?.onStream("user", (accountId, texts) => {
    if (!watched(accountId)) return;
    const pushes = parse(texts);
    const of = <T>(event: string) => pushes.filter((p) => p.event === event).map((p) => p.data as T);
    onSpot({
      accountId,
      orders: of<PaperOrder>("order"),
      fills: of<PaperTrade>("fill"),
      balances: pushes.some((p) => p.event === "balance") ? true : null,
    });
  });
  const offRemoteFutures = d.writerStreams?.onStream("futures", (accountId, texts) => {
    if (futures === undefined || !watched(accountId)) return;
    const pushes = parse(texts);
    const of = <T>(event: string) => pushes.filter((p) => p.event === event).map((p) => p.data as T);
    const account = of<{ dualSidePosition: boolean }>("account")[0];
    if (account === undefined) return;
    void Promise.resolve(futures.settingsAll(accountId)).then(
      (all) => {
        const bySymbol = new Map(all.map((x) => [x.symbol, x]));
        onFutures(
          { accountId, orders: of<FuturesOrder>("order"), fills: of<FuturesTrade>("fill"), account },
          // settingsAll covers every perpetual, so every order's symbol.
          (symbol) => bySymbol.get(symbol) as FuturesSettings,
        );
      },
      () => {},
    );
  });

  const offMarket = d.market.onUpdate((update) => {
    for (const c of conns) {
      for (const a of c.subs.values()) {
        if (!PUBLIC_CHANNELS.has(a.channel) && CANDLES[a.channel] === undefined) continue;
        const trades = update.trades.get(a.instId);
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

  app.addHook("onClose", async () => {
    offMarket();
    offRemoteSpot?.();
    offRemoteFutures?.();
    offPaper();
    offFutures?.();
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
    if (!d.keys.passphraseMac(apiKey, passphrase).equals(key.passphraseMac))
      return fail(30012, "Invalid ACCESS_PASSPHRASE");
    const text = `${ts}GET/user/verify`;
    const given = Buffer.from(sign, "base64");
    const ok =
      key.secret !== null
        ? (() => {
            const want = crypto.createHmac("sha256", key.secret).update(text).digest();
            return want.length === given.length && crypto.timingSafeEqual(want, given);
          })()
        : key.rsa !== null && given.length > 0 && crypto.verify("sha256", Buffer.from(text), key.rsa, given);
    if (!ok) return fail(30015, "Invalid sign");
    if (!ipAllowed(key, c.ip)) return fail(30004, "Invalid IP");
    if (!key.permissions.has("read")) return fail(30004, "Incorrect permissions");
    c.key = key;
    c.accountId = (await d.account(key.owner)).accountId;
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

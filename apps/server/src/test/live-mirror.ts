import type { Depth, MarketStatus, MarketTrade } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll } from "vitest";
import { securityRoutes } from "../modules/accounts/index.ts";
import { moduleRoutes } from "../modules/index.ts";
import type { PlatformDb } from "../platform/db/index.ts";
import { accountsTestApp } from "./accounts.ts";
import { type DbTarget, reopenableDbTargets } from "./db-targets.ts";
import { freePort } from "./ports.ts";
import { killUpstream, startUpstream, type Upstream, until } from "./upstream.ts";

/**
 * A Meridian mirroring a second Meridian (the upstream exchange) through ccxt's bitget
 * class, on a SQLite file that survives a restart: the live fill-model tests of spot and
 * futures. The upstream's model feed is held still (a minute a tick) and a keep-alive
 * prints a trade at its best ask every second, so the mirror's book stays fresh (and
 * unchanged) without reaching paper bids. Call at the top of a test file: it registers
 * its own `beforeAll` and `afterAll`; read the fields inside tests and hooks.
 */
export interface LiveMirror {
  readonly upstream: Upstream;
  /** The mirroring Meridian (a new one after `restart`). */
  readonly app: FastifyInstance;
  readonly db: PlatformDb;
  /** The price the keep-alive prints at: the upstream's book is the same whenever it printed last. */
  readonly keepAsk: string;
  /** A logged-in session cookie on the mirror (the same user across restarts). */
  login(): Promise<string>;
  /** Closes the mirror and opens it again on the same database. */
  restart(): Promise<void>;
  /** A GET answer's data from the mirror. */
  get<T>(url: string): Promise<T>;
  /** The upstream's book for the pair once the mirror shows it too, live. */
  book(): Promise<Depth>;
  /**
   * `book()`, then a keep-alive print heard with that book known: resting orders (again
   * after a restart) have queued by then, behind what the book shows.
   */
  settledBook(): Promise<Depth>;
}

export function liveMirror(pair: string, dbName: string): LiveMirror {
  const saved = { ...process.env };
  let upstream: Upstream | undefined;
  let app: FastifyInstance | undefined;
  let db: PlatformDb | undefined;
  let env: Awaited<ReturnType<DbTarget["open"]>> | undefined;
  let login: (() => Promise<string>) | undefined;
  let keepAsk: string | undefined;
  let keepAlive: ReturnType<typeof setInterval> | undefined;
  const must = <T>(v: T | undefined, what: string): T => {
    if (v === undefined) throw new Error(`the live mirror has no ${what} yet`);
    return v;
  };
  const getJson = async <T>(url: string): Promise<T> =>
    ((await (await fetch(url)).json()) as { data: T }).data;

  async function start(): Promise<void> {
    const opened = must(env, "database");
    db = opened.db();
    const built = await accountsTestApp({ db, modules: moduleRoutes.filter((m) => m !== securityRoutes) });
    app = built.app;
    login = built.login;
  }

  beforeAll(async () => {
    const up = await startUpstream(await freePort(), { MARKET_TICK_MS: "60000" });
    upstream = up;
    const ask = (await getJson<Depth>(`${up.url}/v1/market/depth?symbol=${pair}&limit=50`)).asks[0]?.[0];
    if (ask === undefined) throw new Error("the upstream shows no ask");
    keepAsk = ask;
    keepAlive = setInterval(() => void up.print(pair, ask, "0.001"), 1000);
    await up.print(pair, ask, "0.001");
    process.env.MARKET_FEED = "ccxt:bitget";
    process.env.MARKET_FEED_URL = up.url;
    process.env.MARKET_SYMBOLS = pair;
    process.env.MARKET_CLOCK = "system";
    const sqlite = reopenableDbTargets(dbName)[0];
    if (sqlite === undefined) throw new Error("no sqlite target");
    env = await sqlite.open();
    await start();
  }, 60_000);

  afterAll(async () => {
    clearInterval(keepAlive);
    await app?.close();
    await db?.close();
    if (upstream !== undefined) await killUpstream(upstream);
    await env?.cleanup();
    process.env = saved;
  });

  const mirror: LiveMirror = {
    get upstream() {
      return must(upstream, "upstream");
    },
    get app() {
      return must(app, "app");
    },
    get db() {
      return must(db, "database");
    },
    get keepAsk() {
      return must(keepAsk, "keep-alive price");
    },
    login: () => must(login, "app")(),
    async restart() {
      await must(app, "app").close();
      await must(db, "database").close();
      await start();
    },
    get: async <T>(url: string): Promise<T> => (await mirror.app.inject({ method: "GET", url })).json().data,
    book: () =>
      // 30 s: on a loaded machine the mirror takes a while to catch a fresh upstream book.
      until("the mirror shows the upstream's book", 30_000, async () => {
        const up = await getJson<Depth>(`${mirror.upstream.url}/v1/market/depth?symbol=${pair}&limit=50`);
        const mine = await mirror.get<Depth>(`/v1/market/depth?symbol=${pair}&limit=50`);
        const st = await mirror.get<MarketStatus>("/v1/market/status");
        const live = st.symbols.find((s) => s.symbol === pair)?.state === "live";
        return live && JSON.stringify([mine.bids, mine.asks]) === JSON.stringify([up.bids, up.asks])
          ? up
          : undefined;
      }),
    async settledBook() {
      const book = await mirror.book();
      const known = Date.now();
      await until("a print heard with the book known", 10_000, async () => {
        const trades = await mirror.get<MarketTrade[]>(`/v1/market/trades?symbol=${pair}&limit=5`);
        return trades.some((t) => t.time >= known) ? true : undefined;
      });
      return book;
    },
  };
  return mirror;
}

/** A decimal string without trailing zeros ("0.00200" -> "0.002"). */
export const plainDecimal = (d: string) => (d.includes(".") ? d.replace(/\.?0+$/, "") : d);

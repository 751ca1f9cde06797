import { Code, type Envelope, type FuturesAccount, FuturesPath } from "@meridian/contracts";
import { parseScaled } from "@meridian/domain";
import { afterAll, beforeAll, expect } from "vitest";
import { LocalVenue } from "../modules/paper/index.ts";
import type { PlatformDb } from "../platform/db/index.ts";
import type { ModuleRoutes } from "../platform/platform.ts";
import type { DbTarget } from "./db-targets.ts";
import { makerQuote, type PaperTestApp, paperCall, paperTestApp } from "./paper.ts";

export type FuturesTestApp = PaperTestApp;

/**
 * The paper app with futures' test marks on, on `venue`'s books, then `more` modules.
 * Pass the previous run's venue to restart on it.
 */
export function futuresTestApp(
  db: PlatformDb,
  venue = new LocalVenue({ ladder: false }),
  more: readonly ModuleRoutes[] = [],
): Promise<FuturesTestApp> {
  return paperTestApp(db, { venue, core: { futures: { testMarks: true } }, modules: more });
}

/** What a futures suite has running, and the steps its tests share (`futuresSuite`). */
export interface FuturesSuite {
  /** The running app: a new one after each `restart`. */
  readonly run: FuturesTestApp;
  /**
   * Stops the app and starts it again on the same database and venue: what was committed
   * must come back from storage. Answers the new app.
   */
  restart(): Promise<FuturesTestApp>;
  /** `paperCall` on the running app. */
  call<T>(
    cookie: string,
    method: "GET" | "POST" | "DELETE",
    url: string,
    body?: unknown,
  ): Promise<Envelope<T>>;
  /** A new logged-in user whose paper account is activated. */
  activated(): Promise<string>;
  /**
   * `activated`, with `amount` of `asset` moved into its futures wallet (the USDT-M one,
   * or the coin-M wallet of that coin); checks the wallet holds it.
   */
  funded(amount?: string, asset?: string): Promise<string>;
}

/**
 * The setup every futures integration suite shares, on one database target: before all,
 * `futuresTestApp` on the target's database with maker quotes on the BTCUSDT spot book its
 * orders take (5 BTC a side, asks at 50,000 and bids at 49,990); after all, the app, the
 * database and the target closed. Call it first in a `describe.each(targets)` body.
 */
export function futuresSuite(target: DbTarget): FuturesSuite {
  let env: Awaited<ReturnType<DbTarget["open"]>> | undefined;
  let running: FuturesTestApp | undefined;
  const current = (): FuturesTestApp => {
    if (running === undefined) throw new Error("futuresSuite: the app runs only inside the suite's tests");
    return running;
  };
  beforeAll(async () => {
    env = await target.open();
    running = await futuresTestApp(env.db());
    makerQuote(running.venue, "BTCUSDT", "SELL", "50000.00", "5");
    makerQuote(running.venue, "BTCUSDT", "BUY", "49990.00", "5");
  });
  afterAll(async () => {
    await running?.app.close();
    await running?.db.close();
    await env?.cleanup();
  });
  const suite: FuturesSuite = {
    get run() {
      return current();
    },
    async restart() {
      const before = current();
      if (env === undefined) throw new Error("futuresSuite: no database");
      await before.app.close();
      await before.db.close();
      running = await futuresTestApp(env.db(), before.venue);
      return running;
    },
    call: (cookie, method, url, body) => paperCall(current().app, cookie, method, url, body),
    async activated() {
      const cookie = await current().login();
      await paperCall(current().app, cookie, "POST", "/v1/paper/account/activate");
      return cookie;
    },
    async funded(amount = "10000", asset = "USDT") {
      const cookie = await suite.activated();
      const t = await paperCall<FuturesAccount>(current().app, cookie, "POST", FuturesPath.TRANSFER, {
        direction: "IN",
        amount,
        ...(asset === "USDT" ? {} : { asset }),
      });
      expect(t.code).toBe(Code.OK);
      expect(t.data.marginCoin).toBe(asset);
      expect(parseScaled(t.data.wallet, 8)).toEqual(parseScaled(amount, 8));
      return cookie;
    },
  };
  return suite;
}

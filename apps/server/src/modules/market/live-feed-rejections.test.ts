import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/ports.ts";
import { startTamperProxy, type TamperProxy } from "../../test/tamper-proxy.ts";
import { killUpstream, startUpstream, type Upstream, until } from "../../test/upstream.ts";
import { CcxtFeed, type FeedBook, systemClock } from "./index.ts";

/**
 * No feed error may become an unhandled rejection (which ends the process): an exchange
 * that refuses the inverse ticker stream at every retry, and book updates that fail
 * their checksum again and again, while two pairs' books, trades and the USDT-M tickers
 * share the connection. The upstream is a second Meridian behind a proxy that alters its
 * frames. Without `guardWatches` both tests record ccxt ChecksumErrors nobody handled.
 */

let upstream: Upstream;
let proxy: TamperProxy;
let stop: () => void;
const books: Array<{ book: FeedBook; at: number }> = [];
const marks: Array<{ symbol: string; at: number }> = [];
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
let frameNo = 0;

beforeAll(async () => {
  process.on("unhandledRejection", onUnhandled);
  upstream = await startUpstream(await freePort(), { MARKET_TICK_MS: "100" });
  proxy = await startTamperProxy(upstream.url);
  proxy.tamper((frame) => {
    frameNo += 1;
    return frame;
  });
  const feed = await CcxtFeed.open({
    exchange: "bitget",
    symbols: ["BTCUSDT", "ETHUSDT"],
    url: proxy.url,
    perps: ["BTCUSDT", "ETHUSDT", "BTCUSD", "ETHUSD"],
    clock: systemClock,
    log: { info() {}, warn() {} },
  });
  stop = feed.start(() => {}, {
    book: (book) => books.push({ book, at: frameNo }),
    perp: (p) => marks.push({ symbol: p.symbol, at: frameNo }),
  });
  await until("the first mirrored book and inverse mark", 20_000, async () =>
    books.length > 0 && marks.some((m) => m.symbol === "BTCUSD") ? true : undefined,
  );
}, 60_000);

afterAll(async () => {
  stop?.();
  process.off("unhandledRejection", onUnhandled);
  await proxy?.close();
  if (upstream !== undefined) await killUpstream(upstream);
});

const parse = (frame: string) =>
  frame.startsWith("{")
    ? (JSON.parse(frame) as {
        event?: string;
        action?: string;
        arg?: { instType?: string; channel?: string; instId?: string };
        data?: Array<{ checksum?: number }>;
      })
    : undefined;

/** Lets frames through again; resolves once the book and both tickers are heard after `from`. */
async function recovered(from: number): Promise<void> {
  proxy.tamper((frame) => {
    frameNo += 1;
    return frame;
  });
  await until("books and marks again", 40_000, async () =>
    books.some((b) => b.at > from) &&
    marks.some((m) => m.symbol === "BTCUSD" && m.at > from) &&
    marks.some((m) => m.symbol === "BTCUSDT" && m.at > from)
      ? true
      : undefined,
  );
}

describe("feed errors never reach the process", () => {
  it("survives an exchange that refuses the inverse ticker stream at every retry", async () => {
    let errors = 0;
    proxy.tamper((frame) => {
      frameNo += 1;
      const m = parse(frame);
      if (m?.arg?.instType !== "COIN-FUTURES") return frame;
      errors += 1;
      return JSON.stringify({
        event: "error",
        arg: m.arg,
        code: 30001,
        msg: `instType:COIN-FUTURES,channel:${m.arg.channel ?? ""} doesn't exist`,
      });
    });
    // Each error event makes ccxt reject every watch on the shared connection, the books'
    // too, while the upstream's subscriptions live on (so updates land on dropped books).
    await until("three refusals", 30_000, async () => (errors >= 3 ? true : undefined));
    const at = frameNo;
    await recovered(at);
    expect(unhandled).toEqual([]);
  }, 90_000);

  it("survives book updates that fail their checksum again and again", async () => {
    let bad = 0;
    proxy.tamper((frame) => {
      frameNo += 1;
      const m = parse(frame);
      const d = m?.data?.[0];
      // BTCUSDT's updates only: ETHUSDT's keep resolving the shared books watch.
      if (m?.action !== "update" || m.arg?.channel !== "books" || m.arg.instId !== "BTCUSDT") return frame;
      if (d === undefined) return frame;
      bad += 1;
      d.checksum = (d.checksum ?? 0) + 1;
      return JSON.stringify(m);
    });
    await until("five failed checksums", 30_000, async () => (bad >= 5 ? true : undefined));
    const at = frameNo;
    await recovered(at);
    expect(unhandled).toEqual([]);
  }, 90_000);
});

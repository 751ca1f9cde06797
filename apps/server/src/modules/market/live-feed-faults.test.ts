import type { Kline } from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "../../test/ports.ts";
import { startTamperProxy, type TamperProxy } from "../../test/tamper-proxy.ts";
import { killUpstream, startUpstream, type Upstream, until } from "../../test/upstream.ts";
import { CcxtFeed, type FeedBook, systemClock } from "./index.ts";

/**
 * An exchange that sends a book the feed cannot trust: the feed drops the symbol (its
 * orders refused, nothing filled) and rebuilds the book from a fresh snapshot, logging
 * once per episode. The upstream is a second Meridian; a proxy between the two alters
 * the upstream's frames the way a faulty exchange or a broken network would.
 */

/**
 * `at`: the number of the upstream frame the event came from. A book carries its frame's
 * `ts` (ccxt's book timestamp), so a book the feed hands on late is still placed at its
 * frame, not at whichever frame the proxy has passed since; a symbol going down is placed at
 * the frames passed by then (it comes after its cause).
 */
type Event = { kind: "book"; book: FeedBook; at: number } | { kind: "down"; symbol: string; at: number };

let upstream: Upstream;
let proxy: TamperProxy;
let stop: () => void;
let feed: CcxtFeed;
const events: Event[] = [];
const warnings: string[] = [];
/** Frames from the upstream, numbered as they reached the feed (after the proxy). */
let frameNo = 0;
const snapshotsAt: number[] = [];
/** Upstream BTCUSDT book frames by their `ts` (the last frame of each `ts`). */
const frameOfTs = new Map<number, number>();

beforeAll(async () => {
  upstream = await startUpstream(await freePort(), { MARKET_TICK_MS: "100" });
  proxy = await startTamperProxy(upstream.url);
  feed = await CcxtFeed.open({
    exchange: "bitget",
    symbols: ["BTCUSDT"],
    url: proxy.url,
    perps: [],
    clock: systemClock,
    log: {
      info() {},
      warn(_o: unknown, msg: string) {
        warnings.push(msg);
      },
    },
  });
  stop = feed.start(() => {}, {
    book: (book) => events.push({ kind: "book", book, at: frameOfTs.get(book.time) ?? frameNo }),
    down: (symbol) => events.push({ kind: "down", symbol, at: frameNo }),
  });
  await until("the first mirrored book", 20_000, async () =>
    events.some((e) => e.kind === "book") ? true : undefined,
  );
}, 60_000);

afterAll(async () => {
  stop?.();
  await proxy?.close();
  if (upstream !== undefined) await killUpstream(upstream);
});

interface BooksFrame {
  action: string;
  arg: { channel: string; instId: string };
  data: Array<{ bids: string[][]; asks: string[][]; checksum: number; ts: string }>;
}

/** The upstream's BTCUSDT book as the frames passing the proxy build it (price -> size). */
const upstreamBook = { bids: new Map<string, string>(), asks: new Map<string, string>() };

function track(m: BooksFrame): void {
  const d = m.data[0];
  if (d === undefined) return;
  if (m.action === "snapshot") {
    upstreamBook.bids.clear();
    upstreamBook.asks.clear();
  }
  for (const [side, levels] of [
    [upstreamBook.bids, d.bids],
    [upstreamBook.asks, d.asks],
  ] as const)
    for (const [price, size] of levels)
      if (price !== undefined && size !== undefined) {
        if (Number(size) === 0) side.delete(price);
        else side.set(price, size);
      }
}

const booksFrame = (frame: string): BooksFrame | undefined => {
  if (!frame.startsWith("{")) return undefined;
  const m = JSON.parse(frame) as Partial<BooksFrame>;
  // Snapshots and updates only: the acknowledgements of (un)subscriptions carry no data.
  return m.arg?.channel === "books" && m.arg.instId === "BTCUSDT" && Array.isArray(m.data)
    ? (m as BooksFrame)
    : undefined;
};

/**
 * Passes frames on, counting them; the first BTCUSDT book update after arming goes
 * through `alter` once, and the update after it through `then` (when given). Resolves with
 * the first altered frame's number.
 */
function tamperOnce(alter: (m: BooksFrame) => string, then?: (m: BooksFrame) => string): Promise<number> {
  return new Promise((resolve) => {
    const steps = [alter, ...(then === undefined ? [] : [then])];
    proxy.tamper((frame) => {
      frameNo += 1;
      const m = booksFrame(frame);
      if (m === undefined) return frame;
      track(m);
      const ts = Number(m.data[0]?.ts);
      if (Number.isFinite(ts)) frameOfTs.set(ts, frameNo);
      if (m.action === "snapshot") snapshotsAt.push(frameNo);
      const step = m.action === "update" ? steps.shift() : undefined;
      if (step === undefined) return frame;
      if (step === alter) resolve(frameNo);
      return step(m);
    });
  });
}

/** `m` carrying every level of the upstream's book: the deltas of a move that changed them all. */
function wholeBook(m: BooksFrame): string {
  const d = m.data[0];
  if (d !== undefined) {
    d.bids = [...upstreamBook.bids];
    d.asks = [...upstreamBook.asks];
  }
  return JSON.stringify(m);
}

/** After the bad frame: the symbol went down, then a snapshot, then books again. */
async function resynced(bad: number): Promise<{ down: Event; next: FeedBook }> {
  return await until("the book rebuilt from a fresh snapshot", 30_000, async () => {
    const down = events.find((e) => e.kind === "down" && e.at >= bad);
    const snapshot = snapshotsAt.find((n) => n > bad);
    if (down === undefined || snapshot === undefined) return undefined;
    const next = events.find((e) => e.kind === "book" && e.at >= snapshot);
    return next?.kind === "book" ? { down, next: next.book } : undefined;
  });
}

describe("a book the feed cannot trust", () => {
  it("resynchronises from a snapshot after a checksum mismatch, logging once", async () => {
    const warned = warnings.length;
    const bad = await tamperOnce((m) => {
      const d = m.data[0];
      if (d !== undefined) d.checksum = d.checksum === 1 ? 2 : 1;
      return JSON.stringify(m);
    });
    const { down } = await resynced(bad);
    expect(down.kind === "down" && down.symbol).toBe("BTCUSDT");
    // No book between the bad frame and the symbol going down.
    const handed = events.filter((e) => e.kind === "book" && e.at >= bad && e.at < down.at);
    expect(handed).toEqual([]);
    expect(warnings.slice(warned)).toEqual(["market: feed lost, resyncing"]);
  }, 60_000);

  it("never hands on a crossed level an update slipped in, and rebuilds the book", async () => {
    const warned = warnings.length;
    // A bid far above every ask: garbage a broken upstream might send with a valid frame.
    const bogus = "99999999";
    const bad = await tamperOnce((m) => {
      m.data[0]?.bids.unshift([bogus, "1"]);
      return JSON.stringify(m);
    });
    await resynced(bad);
    const shown = events.filter((e) => e.kind === "book" && e.at >= bad);
    expect(shown.length).toBeGreaterThan(0);
    // Every book handed on is uncrossed (its best bid below its best ask).
    for (const e of shown)
      if (e.kind === "book") expect(e.book.bids[0]?.[0] ?? 0).toBeLessThan(e.book.asks[0]?.[0] ?? Infinity);
    expect(warnings.slice(warned)).toEqual(["market: feed lost, resyncing"]);
  }, 60_000);
});

describe("an error the exchange sends on the shared connection", () => {
  it("rebuilds every book from a fresh snapshot, not from deltas on empty books", async () => {
    const warned = warnings.length;
    // Bitget answers a subscription it cannot serve with an error event; ccxt then rejects
    // every watch on that connection, the books' too, while their subscriptions live on.
    // The next update changes every level (a sharp move): deltas an emptied book would take,
    // checksum and all, were the feed to wait for them instead of a snapshot.
    const bad = await tamperOnce(
      () =>
        JSON.stringify({
          event: "error",
          code: 30001,
          msg: "instType:COIN-FUTURES,channel:ticker doesn't exist",
        }),
      wholeBook,
    );
    const { next } = await resynced(bad);
    expect(next.bids[0]?.[0] ?? 0).toBeLessThan(next.asks[0]?.[0] ?? Infinity);
    expect(warnings.slice(warned)).toContain("market: feed lost, resyncing");
  }, 60_000);
});

describe("after an outage", () => {
  it("fetches the exchange's minute bars of the gap for the chart", async () => {
    const to = Date.now();
    const from = to - 10 * 60_000;
    const bars = await feed.gapBars("BTCUSDT", from, to);
    const res = await fetch(`${upstream.url}/v1/market/klines?symbol=BTCUSDT&interval=1m&limit=20`);
    const theirs = ((await res.json()) as { data: Kline[] }).data.filter(
      (k) => k.openTime >= from && k.openTime < to,
    );
    expect(bars.length).toBeGreaterThanOrEqual(9);
    const first = theirs.find((k) => k.openTime === bars[0]?.time);
    expect(first).toBeDefined();
    // Ticks of 0.01 USDT: the upstream's open and close of that minute.
    expect([bars[0]?.open, bars[0]?.close].map((t) => ((t ?? 0) / 100).toFixed(2))).toEqual([
      first?.open,
      first?.close,
    ]);
  });
});

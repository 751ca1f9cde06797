import { asLots, asTicks, type Bar, Side, Stp, Tif } from "@meridian/domain";
import { describe, expect, it } from "vitest";
import { fedMarket } from "../../test/fed-market.ts";
import type { FeedBook, FeedStartOptions, MarketFeed } from "./feed.ts";
import { MakerBook } from "./maker-book.ts";

const START = Date.UTC(2026, 0, 15, 12, 0, 0);
const USER = 7;

/** A mirroring feed the test hands books to. */
class Exchange implements MarketFeed {
  readonly name = "ccxt:exchange";
  readonly symbols = ["BTCUSDT"];
  readonly mirrorsBooks = true;
  options: FeedStartOptions = {};
  history(): readonly Bar[] {
    return [];
  }
  anchor(): void {}
  start(_sink: unknown, options: FeedStartOptions = {}): () => void {
    this.options = options;
    return () => undefined;
  }
}

const book = (time: number, bids: Array<[number, number]>, asks: Array<[number, number]>): FeedBook => ({
  symbol: "BTCUSDT",
  time,
  bids,
  asks,
});

describe("a live feed's books in the engine", () => {
  it("quotes only the latest of the books heard while nothing of anyone else's is there", async () => {
    const exchange = new Exchange();
    const market = await fedMarket(exchange, START);
    const maker = market.book("BTCUSDT");
    if (maker === undefined) throw new Error("no book");
    const books = [
      book(1, [[9_999_000, 40]], [[10_000_000, 30]]),
      book(2, [[9_999_000, 41]], [[10_000_000, 30]]),
      book(3, [[9_998_000, 41]], [[10_001_000, 30]]),
    ];
    // What quoting each book in turn leaves.
    const seq = maker.book.sequence;
    const each = new MakerBook({ spec: maker.book.spec, seed: 1, touchLots: 1 });
    for (const b of books) {
      exchange.options.book?.(b);
      each.mirror(b.bids, b.asks, b.time);
    }
    expect(maker.book.sequence).toBe(seq);
    expect(market.book("BTCUSDT")?.depth(5)).toEqual(each.depth(5));
    expect(maker.book.sequence).toBeGreaterThan(seq);
    expect(market.shownBook("BTCUSDT")).toEqual(books[2]);

    // Once an order took from a quote, a book is quoted as it comes: the level's refresh
    // (31 lots) counts even though the next book shows it at 30 again. Whole again, the
    // quotes may wait for the latest book.
    const take = (b: MakerBook) =>
      b.book.limit(1, USER, Side.Buy, asTicks(10_001_000), asLots(10), Tif.IOC, Stp.ExpireTaker, 4);
    take(maker);
    take(each);
    expect(maker.depth(5).asks).toEqual([[10_001_000, 20]]);
    expect(maker.pristine).toBe(false);
    const refreshed = book(5, [[9_998_000, 41]], [[10_001_000, 31]]);
    const before = maker.book.sequence;
    exchange.options.book?.(refreshed);
    each.mirror(refreshed.bids, refreshed.asks, 5);
    expect(maker.book.sequence).toBeGreaterThan(before);
    expect(maker.pristine).toBe(true);
    const again = book(6, [[9_998_000, 41]], [[10_001_000, 30]]);
    exchange.options.book?.(again);
    each.mirror(again.bids, again.asks, 6);
    expect(market.book("BTCUSDT")?.depth(5)).toEqual(each.depth(5));
    expect(each.depth(5).asks).toEqual([[10_001_000, 30]]);
    market.stopFeedLoop();
  });
});

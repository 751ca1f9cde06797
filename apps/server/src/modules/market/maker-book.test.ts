import { asLots, asTicks, defineInstrument, type InstrumentSpec, Side, Stp, Tif } from "@meridian/domain";
import { describe, expect, it } from "vitest";
import { MakerBook } from "./maker-book.ts";

const r = defineInstrument({
  symbol: "BTCUSDT" as InstrumentSpec["symbol"],
  base: "BTC" as InstrumentSpec["base"],
  quote: "USDT" as InstrumentSpec["quote"],
  tickSize: "1",
  lotSize: "1",
  minNotional: "0",
});
if (!r.ok) throw new Error("spec");
const spec = r.value;
const USER = 7;
let nextId = 1;
const buy = (m: MakerBook, lots: number) =>
  m.book.market(nextId++, USER, Side.Buy, asLots(lots), Stp.ExpireTaker, 0);

describe("MakerBook.mirror", () => {
  it("quotes the exchange's levels and keeps taken liquidity out until the level refreshes", () => {
    const m = new MakerBook({ spec, seed: 1, touchLots: 1 });
    const bids = [[99, 4]] as const;
    m.mirror(
      bids,
      [
        [100, 3],
        [101, 5],
      ],
      0,
    );
    expect(m.depth(5).asks).toEqual([
      [100, 3],
      [101, 5],
    ]);

    buy(m, 4); // all of 100, 1 of 101
    m.mirror(
      bids,
      [
        [100, 3],
        [101, 5],
      ],
      1,
    ); // the exchange shows both unchanged
    expect(m.depth(5).asks).toEqual([[101, 4]]);

    m.mirror(
      bids,
      [
        [100, 2],
        [101, 5],
      ],
      2,
    ); // 100 refreshed (its size changed)
    expect(m.depth(5).asks).toEqual([
      [100, 2],
      [101, 4],
    ]);

    m.mirror(
      bids,
      [
        [100, 2],
        [101, 6],
      ],
      3,
    ); // 101 refreshed too
    expect(m.depth(5).asks).toEqual([
      [100, 2],
      [101, 6],
    ]);
  });

  it("quotes everything again after the book was withdrawn (a fresh snapshot)", () => {
    const m = new MakerBook({ spec, seed: 1, touchLots: 1 });
    m.mirror([], [[100, 3]], 0);
    buy(m, 3);
    m.clear(1);
    m.mirror([], [[100, 3]], 2);
    expect(m.depth(5).asks).toEqual([[100, 3]]);
    m.book.limit(nextId++, USER, Side.Sell, asTicks(105), asLots(1), Tif.GTC, Stp.ExpireTaker, 3);
    expect(m.depth(5).asks).toEqual([
      [100, 3],
      [105, 1],
    ]);
  });

  it("is pristine while it holds its own whole quotes only", () => {
    const m = new MakerBook({ spec, seed: 1, touchLots: 1 });
    const asks = [
      [100, 3],
      [101, 5],
    ] as const;
    expect(m.pristine).toBe(true);
    m.mirror([[99, 4]], asks, 0);
    expect(m.pristine).toBe(true);

    buy(m, 1); // part of 100
    expect(m.pristine).toBe(false);
    m.mirror([[99, 4]], asks, 1); // unchanged: 100 stays reduced
    expect(m.pristine).toBe(false);
    m.mirror(
      [[99, 4]],
      [
        [100, 4],
        [101, 5],
      ],
      2,
    ); // 100 refreshed: quoted whole again
    expect(m.pristine).toBe(true);

    const id = nextId++;
    m.book.limit(id, USER, Side.Buy, asTicks(90), asLots(1), Tif.GTC, Stp.ExpireTaker, 3);
    expect(m.pristine).toBe(false);
    m.book.cancel(id, 4);
    expect(m.pristine).toBe(true);

    buy(m, 9); // all of 100 and 101
    m.clear(5);
    expect(m.pristine).toBe(true);
  });
});

import { Code, type PaperBalance, type PaperOrder, type PaperTrade } from "@meridian/contracts";
import { type MirrorLevel, priceToTicks, qtyToLots } from "@meridian/domain";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import { paperCall as call, expectConserved, type PaperTestApp, paperTestApp } from "../../test/paper.ts";
import { LocalVenue, type MirroredBook } from "./index.ts";

/**
 * The spot engine on a mirrored venue: resting orders leave the book for the exchange's
 * queue and fill only from its printed trades, settled like any fill (docs/trading.md).
 */
class MirroredVenue extends LocalVenue {
  shown: MirroredBook | undefined;
  private readonly printed = new Set<(symbol: string, trades: readonly MirrorLevel[]) => void>();
  mirrored(): boolean {
    return true;
  }
  shownBook(): MirroredBook | undefined {
    return this.shown;
  }
  onExchangeTrades(listener: (symbol: string, trades: readonly MirrorLevel[]) => void): () => void {
    this.printed.add(listener);
    return () => this.printed.delete(listener);
  }
  /** The exchange prints trades: [price, qty] as decimals. */
  prints(symbol: string, trades: ReadonlyArray<readonly [string, string]>): void {
    const list = trades.map(([p, q]) => this.level(symbol, p, q));
    for (const l of this.printed) l(symbol, list);
  }
  level(symbol: string, price: string, qty: string): MirrorLevel {
    const spec = this.spec(symbol);
    const ticks = spec === undefined ? undefined : priceToTicks(spec, price);
    const lots = spec === undefined ? undefined : qtyToLots(spec, qty);
    if (ticks?.ok !== true || lots?.ok !== true) throw new Error(`bad level ${price} x ${qty}`);
    return [ticks.value, lots.value];
  }
}

const targets = reopenableDbTargets("paper-queue");

describe.each(targets)("resting orders on a mirrored venue, $name", (target) => {
  let env: Awaited<ReturnType<DbTarget["open"]>>;
  let run: PaperTestApp;
  const venue = new MirroredVenue({ ladder: false });
  beforeAll(async () => {
    env = await target.open();
    run = await paperTestApp(env.db(), { venue });
  });
  afterAll(async () => {
    await run.app.close();
    await run.db.close();
    await env.cleanup();
  });

  const find = async (cookie: string, id: number): Promise<PaperOrder | undefined> => {
    const open = await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/open");
    const done = await call<PaperOrder[]>(run.app, cookie, "GET", "/v1/paper/orders/history");
    return [...open.data, ...done.data].find((o) => o.orderId === id);
  };
  const usdt = async (cookie: string) =>
    (await call<PaperBalance[]>(run.app, cookie, "GET", "/v1/paper/balances")).data.find(
      (b) => b.asset === "USDT",
    );

  it("fills from printed trades past its queue, not from a book crossing it, and cancels the rest", async () => {
    const alice = await run.login();
    venue.shown = {
      bids: [venue.level("BTCUSDT", "60000.00", "0.3")],
      asks: [venue.level("BTCUSDT", "60010.00", "1")],
    };
    const buy = (price: string) =>
      call<{ order: PaperOrder }>(run.app, alice, "POST", "/v1/paper/orders", {
        symbol: "BTCUSDT",
        side: "BUY",
        type: "LIMIT",
        price,
        quantity: "0.1",
      });
    const placed = await buy("60000.00");
    expect(placed.code).toBe(Code.OK);
    const id = placed.data.order.orderId;
    expect((await usdt(alice))?.held).toBe("6006.00000001");

    // The exchange's ask moves below the order: a crossing book alone fills nothing.
    venue.shown = { bids: [], asks: [venue.level("BTCUSDT", "59990.00", "1")] };
    venue.prints("BTCUSDT", [["60000.00", "0.3"]]);
    await run.ledger.flush();
    expect((await find(alice, id))?.status).toBe("NEW");

    venue.prints("BTCUSDT", [["60000.00", "0.04"]]);
    await run.ledger.flush();
    expect(await find(alice, id)).toMatchObject({ status: "PARTIALLY_FILLED", executedQty: "0.04000" });
    const trades = await call<PaperTrade[]>(run.app, alice, "GET", "/v1/paper/trades?symbol=BTCUSDT");
    expect(trades.data.map((t) => [t.price, t.qty, t.isMaker])).toEqual([["60000.00", "0.04000", true]]);

    const cancelled = await call<PaperOrder>(run.app, alice, "DELETE", `/v1/paper/orders/${id}`);
    expect(cancelled.data).toMatchObject({ status: "CANCELED", executedQty: "0.04000" });
    expect((await usdt(alice))?.held).toBe("0.00000000");
    venue.prints("BTCUSDT", [["59000.00", "1"]]);
    await run.ledger.flush();
    expect((await find(alice, id))?.executedQty).toBe("0.04000");

    // Through its price: every printed lot, up to its size.
    const second = await buy("60000.00");
    const id2 = second.data.order.orderId;
    venue.prints("BTCUSDT", [
      ["59999.99", "0.07"],
      ["59999.00", "0.5"],
    ]);
    await run.ledger.flush();
    expect(await find(alice, id2)).toMatchObject({ status: "FILLED", executedQty: "0.10000" });
    await expectConserved(run.ledger);
  });
});

import {
  type AnyPerpContract,
  type InstrumentSpec,
  type MirrorLevel,
  QueuedOrder,
  Side,
  TakenLiquidity,
  Tif,
  type WalkResult,
  walkMirror,
} from "@meridian/domain";
import { convertTicks, type PerpBook, type ShownPairBook } from "./book.ts";
import type { FutOrderRow } from "./repo.ts";

const pow10 = (n: number): bigint => 10n ** BigInt(n);
const SAFE = BigInt(Number.MAX_SAFE_INTEGER);
/** A size as a number for `QueuedOrder` (sizes this large do not occur; capped rather than wrong). */
const safe = (v: bigint): number => Number(v > SAFE ? SAFE : v);
/** Coin-M sizes are US dollars in millionths. */
const USD_DECIMALS = 6;

/**
 * Exact conversions between a pair's spot units and a perpetual following it, for the
 * queue: prices on one decimal scale (the finer of the two ticks), sizes in a unit both
 * divide: USDT-M the base coin at the finer of the two lot scales, coin-M US dollars in
 * millionths (a contract is worth its contract value in dollars).
 */
export class PairScale {
  readonly spot: InstrumentSpec;
  readonly contract: AnyPerpContract;
  /** One perpetual lot (a contract, coin-M) in size units. */
  readonly lotSize: bigint;
  private readonly priceDecimals: number;
  private readonly qtyDecimals: number;

  constructor(spot: InstrumentSpec, contract: AnyPerpContract) {
    this.spot = spot;
    this.contract = contract;
    const perp = contract.instrument;
    this.priceDecimals = Math.max(spot.priceDecimals, perp.priceDecimals);
    this.qtyDecimals = Math.max(spot.qtyDecimals, perp.qtyDecimals);
    this.lotSize =
      contract.family === "coin"
        ? BigInt(contract.contractValue) * pow10(USD_DECIMALS)
        : perp.lotUnits * pow10(this.qtyDecimals - perp.qtyDecimals);
  }

  /** A spot price in ticks on the common scale. */
  spotPrice(ticks: number): number {
    return safe(BigInt(ticks) * this.spot.tickUnits * pow10(this.priceDecimals - this.spot.priceDecimals));
  }

  /** A perpetual price in ticks on the common scale. */
  perpPrice(ticks: number): number {
    const perp = this.contract.instrument;
    return safe(BigInt(ticks) * perp.tickUnits * pow10(this.priceDecimals - perp.priceDecimals));
  }

  /** Spot lots at spot ticks in size units (coin-M: their dollar value at that price, rounded down). */
  size(ticks: number, lots: number): bigint {
    const s = this.spot;
    if (this.contract.family === "usdt")
      return BigInt(lots) * s.lotUnits * pow10(this.qtyDecimals - s.qtyDecimals);
    const scaled = BigInt(lots) * s.lotUnits * BigInt(ticks) * s.tickUnits;
    const decimals = s.qtyDecimals + s.priceDecimals;
    return decimals >= USD_DECIMALS
      ? scaled / pow10(decimals - USD_DECIMALS)
      : scaled * pow10(USD_DECIMALS - decimals);
  }

  /**
   * One side of the pair's shown book in perpetual units, best first: spot levels rounded
   * to the perpetual's tick (asks up, bids down, never better than shown), their sizes
   * summed and then cut to whole lots.
   */
  levels(side: "bids" | "asks", shown: readonly MirrorLevel[]): MirrorLevel[] {
    const perp = this.contract.instrument;
    const out: MirrorLevel[] = [];
    let at = 0;
    let sum = 0n;
    const flush = () => {
      const lots = sum / this.lotSize;
      if (at > 0 && lots > 0n) out.push([at, safe(lots)]);
    };
    for (const [p, q] of shown) {
      const ticks = convertTicks(this.spot, perp, p, side === "asks");
      if (ticks !== at) {
        flush();
        at = ticks;
        sum = 0n;
      }
      sum += this.size(p, q);
    }
    flush();
    return out;
  }
}

/** A resting order in the exchange's queue, in size units, and the whole lots it was given so far. */
class QueuedPerp {
  readonly order: FutOrderRow;
  /** When it joined the queue: trades the exchange printed before are not its own. */
  readonly since: number;
  private readonly queue: QueuedOrder;
  private readonly scale: PairScale;
  private filled = 0n;
  private given = 0n;

  constructor(order: FutOrderRow, scale: PairScale, ahead: bigint, since: number) {
    this.order = order;
    this.since = since;
    this.scale = scale;
    const lots = BigInt(order.qtyLots - order.filledLots);
    const price = scale.perpPrice(order.priceTicks ?? 0);
    this.queue = new QueuedOrder(
      order.side === "BUY" ? Side.Buy : Side.Sell,
      price,
      safe(lots * scale.lotSize),
      safe(ahead),
    );
  }

  /**
   * One printed trade of the pair: the whole lots it gives the order now. Sizes smaller
   * than a lot add up across trades (a lot is given once the volume past the queue
   * covers it).
   */
  onTrade(ticks: number, lots: number): number {
    const size = this.scale.size(ticks, lots);
    if (size <= 0n) return 0;
    this.filled += BigInt(this.queue.onTrade(this.scale.spotPrice(ticks), safe(size)));
    const whole = this.filled / this.scale.lotSize - this.given;
    this.given += whole;
    return Number(whole);
  }
}

/**
 * A live feed's book for the futures engine (docs/trading.md, "Live prices: the fill
 * model"). A perpetual follows its pair's book (`spotSymbolOf`), so its orders walk that
 * book as the exchange shows it, in the perpetual's units (`walkMirror`), less what
 * earlier orders on the same perpetual took (`TakenLiquidity`, one per perpetual: on an
 * exchange each perpetual has its own book, apart from the spot pair's and the other
 * margin family's). What rests waits in the exchange's queue (`QueuedOrder`) and fills
 * only from the pair's printed trades.
 */
export class PerpMirror {
  private readonly book: PerpBook;
  private readonly taken = new Map<string, TakenLiquidity>();
  private readonly scales = new Map<string, PairScale>();
  /** Resting orders by perpetual, then id, in the order they rested. */
  private readonly queues = new Map<string, Map<number, QueuedPerp>>();
  /** Perpetuals whose resting orders (from the database) were queued since the last load. */
  private readonly requeued = new Set<string>();

  constructor(book: PerpBook) {
    this.book = book;
  }

  mirrored(c: AnyPerpContract): boolean {
    return this.book.mirrored?.(c) === true;
  }

  /** After a load: every resting order queues again, behind what shows when it is next needed. */
  reset(): void {
    this.queues.clear();
    this.requeued.clear();
  }

  private scaleOf(c: AnyPerpContract): PairScale | undefined {
    const spec = this.book.pairSpec?.(c);
    if (spec === undefined) return undefined;
    let s = this.scales.get(c.symbol);
    if (s === undefined || s.spot !== spec) {
      s = new PairScale(spec, c);
      this.scales.set(c.symbol, s);
    }
    return s;
  }

  private takenOf(symbol: string): TakenLiquidity {
    let t = this.taken.get(symbol);
    if (t === undefined) {
      t = new TakenLiquidity();
      this.taken.set(symbol, t);
    }
    return t;
  }

  /** The opposite side for a taker as the exchange shows it, in the perpetual's units ([] while unknown). */
  private opposite(c: AnyPerpContract, shown: ShownPairBook | undefined, buy: boolean): MirrorLevel[] {
    const scale = this.scaleOf(c);
    if (shown === undefined || scale === undefined) return [];
    return buy ? scale.levels("asks", shown.asks) : scale.levels("bids", shown.bids);
  }

  /**
   * Plans a taker's walk (up to `limit`, null: a market order, under `tif`) over what the
   * perpetual's book still offers; nothing is recorded as taken until `took` says what
   * filled (a fill the position rules refuse takes nothing).
   */
  walk(
    c: AnyPerpContract,
    side: "BUY" | "SELL",
    lots: number,
    limit: number | null,
    tif: Tif = limit === null ? Tif.IOC : Tif.GTC,
  ): { result: WalkResult; took: (ticks: number, lots: number) => void } {
    const buy = side === "BUY";
    const levels = this.opposite(c, this.book.shown?.(c), buy);
    const taken = this.takenOf(c.symbol);
    const bookSide = buy ? "asks" : "bids";
    // What earlier orders left; the walk itself records nothing (a scratch ledger).
    const left: MirrorLevel[] = levels.map(([p, q]) => [p, taken.available(bookSide, p, q)]);
    const result = walkMirror(
      { side: buy ? Side.Buy : Side.Sell, lots, limit, tif },
      left,
      new TakenLiquidity(),
    );
    const shownAt = new Map(levels);
    return {
      result,
      took: (ticks, n) => {
        if (n > 0) taken.take(bookSide, ticks, shownAt.get(ticks) ?? 0, n);
      },
    };
  }

  /** A new book (or none) for a pair the perpetual follows: its levels shown refreshed are whole again. */
  onBook(c: AnyPerpContract): void {
    const taken = this.taken.get(c.symbol);
    if (taken === undefined || taken.size === 0) return;
    const shown = this.book.shown?.(c);
    taken.onBook(this.opposite(c, shown, false), this.opposite(c, shown, true));
  }

  /**
   * Queues a resting order behind the size the exchange displays at its price on its side
   * now (none when its price is not shown there, or while the book is unknown); `now`:
   * the time it joins the queue.
   */
  enqueue(c: AnyPerpContract, order: FutOrderRow, now: number): void {
    const scale = this.scaleOf(c);
    if (scale === undefined || order.priceTicks === null) return;
    const shown = this.book.shown?.(c);
    const price = scale.perpPrice(order.priceTicks);
    let ahead = 0n;
    for (const [p, q] of (order.side === "BUY" ? shown?.bids : shown?.asks) ?? [])
      if (scale.spotPrice(p) === price) ahead += scale.size(p, q);
    let queue = this.queues.get(c.symbol);
    if (queue === undefined) {
      queue = new Map();
      this.queues.set(c.symbol, queue);
    }
    queue.set(order.id, new QueuedPerp(order, scale, ahead, now));
  }

  /** Whether the exchange's book of the pair the perpetual follows is known. */
  known(c: AnyPerpContract): boolean {
    return this.book.shown?.(c) !== undefined;
  }

  /** Whether an order is in the perpetual's queue. */
  queued(symbol: string, orderId: number): boolean {
    return this.queues.get(symbol)?.has(orderId) ?? false;
  }

  /** Forgets a queued order (it ended). */
  dequeue(symbol: string, orderId: number): void {
    this.queues.get(symbol)?.delete(orderId);
  }

  /** Whether the perpetual's resting orders from the database still have to be queued. */
  needsRequeue(symbol: string): boolean {
    return !this.requeued.has(symbol);
  }

  /** Marks the perpetual's loaded orders as queued (the caller queued them). */
  markRequeued(symbol: string): void {
    this.requeued.add(symbol);
  }

  /** Whether the perpetual has orders waiting in the exchange's queue. */
  hasQueued(symbol: string): boolean {
    return (this.queues.get(symbol)?.size ?? 0) > 0;
  }

  /**
   * The pair's printed trades against the perpetual's queue, in time order, with when the
   * exchange printed each (`times`): calls `fill` with each order and the whole lots a
   * trade gives it; `fill` answers false once the order is done (it leaves the queue), as
   * do orders no longer `open`. A trade printed before an order joined the queue is not
   * its own (the recent trades an exchange sends again when a feed subscribes, or one
   * that crossed the order on its way).
   */
  prints(
    c: AnyPerpContract,
    trades: readonly MirrorLevel[],
    times: readonly number[],
    open: (order: FutOrderRow) => boolean,
    fill: (order: FutOrderRow, lots: number) => boolean,
  ): void {
    const queue = this.queues.get(c.symbol);
    if (queue === undefined) return;
    for (const [id, q] of queue) if (!open(q.order)) queue.delete(id);
    for (const [i, [ticks, lots]] of trades.entries()) {
      const time = times[i] ?? Number.POSITIVE_INFINITY;
      for (const [id, q] of [...queue]) {
        if (time < q.since) continue;
        const n = q.onTrade(ticks, lots);
        if (n > 0 && !fill(q.order, n)) queue.delete(id);
      }
    }
  }
}

import type { PlaceOrderBody } from "@meridian/contracts";
import type { FeeSchedule, Ledger, MirrorLevel } from "@meridian/domain";
import { bookListener, exchangeTrades } from "./fills.ts";
import { refill, topUp } from "./funds.ts";
import { SpotOrders } from "./orders.ts";
import type { LoadedState, OrderBatch, OrderRow, PlaceOptions, PlaceOutcome, TradeRow } from "./rows.ts";
import { type SpotLedger, SpotState } from "./state.ts";
import { SpotTriggers } from "./triggers.ts";
import type { PaperVenue } from "./venue.ts";

/**
 * The paper exchange in memory: the open orders with their holds and the venue's books
 * they rest in. Money moves in the ledger writer's ledger (`modules/ledger`, the
 * authority for every balance check). Commands run synchronously in the ledger writer
 * and collect the rows they change into the current `OrderBatch`, which the ledger
 * writer commits with the journal as one transaction before answering anyone.
 *
 * Fills can also arrive between commands (the liquidity maker requoting into a resting
 * user order); they settle the same way and ask the ledger writer to commit them.
 *
 * This class is the engine's one surface; its parts share one `SpotState` (memory,
 * holds, the batch): `SpotOrders` (placement, cancel), `fills.ts` (the books' fills,
 * rejections, cancels and expiries), `SpotTriggers` (how an order ends, TP/SL legs,
 * stops and their triggers) and `funds.ts` (top-ups, reset).
 */
export class PaperEngine {
  private readonly state: SpotState;
  private readonly triggers: SpotTriggers;
  private readonly orders: SpotOrders;

  constructor(venue: PaperVenue, now: () => number, books: SpotLedger, fees: FeeSchedule) {
    const state = new SpotState(venue, now, books, fees, (symbol) => bookListener(state, triggers, symbol));
    const triggers = new SpotTriggers(state);
    this.state = state;
    this.triggers = triggers;
    this.orders = new SpotOrders(state, triggers);
  }

  /** Set when a settlement was refused: the service must rebuild from the database. */
  get broken(): string | null {
    return this.state.broken;
  }

  /**
   * Called for each fill of a margin order once it is settled (the margin module's
   * AUTO_REPAY and account pushes); it may post entries and add writes.
   */
  set onMarginFill(hook: ((order: OrderRow, trade: TradeRow) => void) | null) {
    this.state.onMarginFill = hook;
  }

  /** The ledger (the authority for every balance check), held by the ledger writer. */
  get ledger(): Ledger {
    return this.state.ledger;
  }

  /** Hands over what changed since the last call. */
  takeBatch(): OrderBatch {
    return this.state.takeBatch();
  }

  /** At the end of each command in the ledger writer: fires the TP/SL legs it made due. */
  afterCommand(): void {
    this.triggers.fireDue();
  }

  // ---- state -----------------------------------------------------------------------

  /** Drops every user order from the books and all memory (before a reload). */
  clear(): void {
    this.state.clear();
    this.triggers.clear();
  }

  /** Rebuilds from the database (`SpotState.load`), then fires the stops the price has passed. */
  load(state: LoadedState): void {
    this.state.load(state);
    this.triggers.fireDue();
  }

  /** Stops listening to the venue's books. */
  detach(): void {
    this.state.detach();
  }

  /** Live order ids of an account (resting and untriggered stops), optionally only some of them. */
  openOrderIds(accountId: number, which?: (row: OrderRow) => boolean): number[] {
    return this.state.openOrderIds(accountId, which);
  }

  // ---- commands ------------------------------------------------------------------------

  topUp(accountId: number, asset: string, amountText: string): void {
    topUp(this.state, accountId, asset, amountText);
  }

  /** Cancels every open order, returns every balance to the treasury, mints the initial set again. */
  reset(accountId: number): void {
    for (const id of this.openOrderIds(accountId, (r) => r.wallet === "spot")) this.cancel(accountId, id);
    refill(this.state, accountId);
  }

  /** Cancels a live order (a spot one, or with `margin` a margin one); false when it is not live (any more). */
  cancel(accountId: number, orderId: number, margin = false): boolean {
    return this.orders.cancel(accountId, orderId, margin);
  }

  place(accountId: number, vipLevel: number, body: PlaceOrderBody, options?: PlaceOptions): PlaceOutcome {
    return this.orders.place(accountId, vipLevel, body, options);
  }

  /** Fires the symbol's stops the reference price has reached. */
  triggerStops(symbol: string): number {
    return this.triggers.triggerStops(symbol);
  }

  /** A mirrored symbol's printed trades: its queued orders fill from them (`exchangeTrades`). */
  exchangeTrades(symbol: string, trades: readonly MirrorLevel[], times: readonly number[]): void {
    exchangeTrades(this.state, this.triggers, symbol, trades, times);
  }

  /** Whether a mirrored symbol has resting orders waiting for the exchange's trades. */
  hasQueued(symbol: string): boolean {
    return (this.state.queued.get(symbol)?.size ?? 0) > 0;
  }

  /** Symbols with stops waiting (the service checks them when prices move). */
  hasStops(symbol: string): boolean {
    return this.triggers.hasStops(symbol);
  }
}

import type { PlaceOrderBody } from "@meridian/contracts";
import type { ClientOrderRef, Placement as LedgerPlacement, LedgerTx } from "../ledger/index.ts";
import type { UserEvents } from "./events.ts";
import type { PaperRepo } from "./repo.ts";
import type { OrderRow, PlaceOptions, PlaceOutcome, TradeRow } from "./rows.ts";
import type { PaperVenue } from "./venue.ts";

/** What `PaperService.transact` hands another module's command: the ledger, and the spot engine. */
export interface PaperTx extends LedgerTx {
  /** Places an order in the same command (margin orders: `options.wallet`). */
  place(accountId: number, vipLevel: number, body: PlaceOrderBody, options: PlaceOptions): PlaceOutcome;
  /** Cancels a live margin order; false when it is not live. */
  cancelMargin(accountId: number, orderId: number): boolean;
  /** Live order ids of an account matching `which`. */
  liveOrderIds(accountId: number, which: (row: OrderRow) => boolean): number[];
}

/** What a placement with a client order id came to: the stored order with that id, or the command's value. */
export type Placement<T> = LedgerPlacement<T, OrderRow>;

/** Committed order and trade rows of every wallet, read-only (margin reads its own through it). */
export type OrderReader = Pick<PaperRepo, "order" | "orders" | "trades">;

/**
 * What margin trading uses of the spot module, as a peer: the books its orders rest
 * in, commands that place or cancel them on the spot engine (in the ledger writer's
 * group commit), its fill hook and commit events, and the committed rows.
 */
export interface SpotForMargin {
  readonly venue: PaperVenue;
  readonly orderRows: OrderReader;
  transact<T>(fn: (tx: PaperTx) => T): Promise<T>;
  transactPlacement<T>(cid: ClientOrderRef | null, fn: (tx: PaperTx) => T): Promise<Placement<T>>;
  setMarginFillHook(hook: ((order: OrderRow, trade: TradeRow, tx: PaperTx) => void) | null): void;
  onEvents(listener: (e: UserEvents) => void): () => void;
}

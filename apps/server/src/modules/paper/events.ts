import type { PaperBalance, PaperOrder, PaperTrade } from "@meridian/contracts";
import { availableOf, heldOf, type Ledger } from "@meridian/domain";
import { presentBalances, presentOrder, presentTrade } from "./present.ts";
import type { OrderBatch, OrderRow, TradeRow } from "./rows.ts";
import type { PaperVenue } from "./venue.ts";

/** What the user stream hears after each commit. */
export interface UserEvents {
  accountId: number;
  orders: PaperOrder[];
  fills: PaperTrade[];
  balances: PaperBalance[] | null;
  /** Margin orders and fills of the commit (the margin module presents and pushes them). */
  marginOrders: OrderRow[];
  marginFills: TradeRow[];
}

/**
 * Tells the listeners what the commit changed, per account (`touched`: the accounts
 * whose balances the commit's journal changed). The spot orders, fills
 * and balances (as of the commit) are presented only when a listener reads them: the
 * user stream reads them only for accounts with a socket open, so a commit of orders
 * nobody watches presents nothing (presenting every balance of every touched account
 * was ~5 % of what an order allocates in bench:orders).
 */
export function publishCommit(
  batch: OrderBatch,
  touched: ReadonlySet<number>,
  ledger: Ledger,
  venue: PaperVenue,
  listeners: ReadonlySet<(e: UserEvents) => void>,
): void {
  if (listeners.size === 0) return;
  interface Raw {
    orders: OrderRow[];
    fills: TradeRow[];
    touched: boolean;
    marginOrders: OrderRow[];
    marginFills: TradeRow[];
  }
  const byAccount = new Map<number, Raw>();
  const of = (accountId: number) => {
    let r = byAccount.get(accountId);
    if (r === undefined) {
      r = { orders: [], fills: [], touched: false, marginOrders: [], marginFills: [] };
      byAccount.set(accountId, r);
    }
    return r;
  };
  for (const o of batch.orders.values())
    (o.wallet === "spot" ? of(o.accountId).orders : of(o.accountId).marginOrders).push(o);
  for (const t of batch.trades)
    (t.wallet === "spot" ? of(t.accountId).fills : of(t.accountId).marginFills).push(t);
  for (const id of touched) of(id).touched = true;
  const presentO = (o: OrderRow) => presentOrder(venue, o);
  const presentT = (t: TradeRow) => presentTrade(venue, t);
  // Balances are copied now (the ledger moves on) and presented only when read.
  const snapshot = (accountId: number) => {
    const available = new Map(ledger.balancesOf(availableOf(accountId)));
    const held = new Map(ledger.balancesOf(heldOf(accountId)));
    return () => presentBalances(available, held);
  };
  for (const [accountId, r] of byAccount) {
    let orders: PaperOrder[] | undefined;
    let fills: PaperTrade[] | undefined;
    let balances: PaperBalance[] | null | undefined;
    const balancesAtCommit = r.touched ? snapshot(accountId) : null;
    const e: UserEvents = {
      accountId,
      get orders() {
        orders ??= r.orders.map(presentO);
        return orders;
      },
      get fills() {
        fills ??= r.fills.map(presentT);
        return fills;
      },
      get balances() {
        if (balances === undefined) balances = balancesAtCommit === null ? null : balancesAtCommit();
        return balances;
      },
      marginOrders: r.marginOrders,
      marginFills: r.marginFills,
    };
    for (const l of listeners) l(e);
  }
}

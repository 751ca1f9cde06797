import {
  type MarginAccountModeValue,
  MarginCode,
  type MarginOrder,
  type MarginOrderBody,
  type MarginPlaceResult,
  type MarginTrade,
  type MaxAmount,
  PaperCode,
  type PlaceOrderBody,
} from "@meridian/contracts";
import { pairUnits } from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import {
  answerPlacement,
  type OrderRow,
  type OrderWallet,
  type PaperTx,
  type SpotForMargin,
  type TradeRow,
} from "../paper/index.ts";
import { fail, type MarginAccounts, type Scope, walletOf } from "./accounts.ts";
import type { MarginLending } from "./lending.ts";
import type { MarginMarkets } from "./markets.ts";
import { maxAmount, presentOrder, presentTrade } from "./present.ts";
import { emptyWrites } from "./repo.ts";

export interface MarginListQuery {
  accountId: number;
  mode?: MarginAccountModeValue | undefined;
  symbol?: string | undefined;
  limit: number;
  before?: number | undefined;
}

/** What orders take of the loans: MARGIN_BUY borrows, AUTO_REPAY repays. */
export type OrderLending = Pick<MarginLending, "doBorrow" | "doRepay">;

/**
 * Margin orders: paper orders with a margin wallet, placed, cancelled and matched on
 * the spot engine, with their side effects (MARGIN_BUY borrows what the hold lacks,
 * AUTO_REPAY repays from each fill), and the committed orders and trades as answers.
 */
export class MarginOrders {
  private readonly accounts: MarginAccounts;
  private readonly lending: OrderLending;
  private readonly spot: SpotForMargin;
  private readonly markets: MarginMarkets;
  private readonly onError: (error: unknown, msg: string) => void;

  constructor(o: {
    accounts: MarginAccounts;
    lending: OrderLending;
    spot: SpotForMargin;
    markets: MarginMarkets;
    onError: (error: unknown, msg: string) => void;
  }) {
    this.accounts = o.accounts;
    this.lending = o.lending;
    this.spot = o.spot;
    this.markets = o.markets;
    this.onError = o.onError;
  }

  async place(accountId: number, vipLevel: number, body: MarginOrderBody): Promise<MarginPlaceResult> {
    const accounts = this.accounts;
    const mode = body.mode ?? "cross";
    const symbol = body.symbol.toUpperCase();
    if (this.markets.pairOf(symbol) === undefined)
      throw fail(MarginCode.UNKNOWN_PAIR, `${symbol} is not tradable on margin`);
    const scope = accounts.scope(accountId, mode, symbol);
    const wallet: OrderWallet = mode;
    const sideEffect = body.sideEffectType ?? "NO_SIDE_EFFECT";
    const spotBody: PlaceOrderBody = {
      symbol,
      side: body.side,
      type: body.type,
      ...(body.price === undefined ? {} : { price: body.price }),
      ...(body.quantity === undefined ? {} : { quantity: body.quantity }),
      ...(body.quoteQty === undefined ? {} : { quoteQty: body.quoteQty }),
      ...(body.stopPrice === undefined ? {} : { stopPrice: body.stopPrice }),
      ...(body.timeInForce === undefined ? {} : { timeInForce: body.timeInForce }),
      ...(body.clientOrderId === undefined ? {} : { clientOrderId: body.clientOrderId }),
    };
    const cid = body.clientOrderId === undefined ? null : { accountId, clientOrderId: body.clientOrderId };
    const placed = await accounts.execPlacement(cid, (tx, w) => {
      let borrowed: MaxAmount | null = null;
      const outcome = tx.place(accountId, vipLevel, spotBody, {
        wallet,
        sideEffect,
        beforeHold: (asset, held) => {
          if (sideEffect !== "MARGIN_BUY") return;
          const free = tx.ledger.balance(walletOf(scope).available, asset);
          if (held <= free) return;
          this.lending.doBorrow(tx, w, scope, asset, held - free);
          borrowed = maxAmount(asset, held - free);
        },
      });
      accounts.openIsolated(scope, w);
      accounts.touch(scope);
      return { outcome, extra: { borrowed: borrowed as MaxAmount | null } };
    });
    return answerPlacement(
      placed,
      { borrowed: null },
      {
        accountId,
        wallet,
        wallets: ["cross", "isolated"],
        rows: this.spot.orderRows,
        presentOrder: (o) => this.presentOrder(o),
        presentTrade: (t) => this.presentTrade(t),
      },
    );
  }

  async cancel(accountId: number, id: number): Promise<MarginOrder> {
    const margin: OrderWallet[] = ["cross", "isolated"];
    const row = await this.spot.orderRows.order(accountId, id, margin);
    if (row === undefined) throw new AppError(PaperCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    const live = await this.accounts.exec((tx) => tx.cancelMargin(accountId, id));
    const after = (await this.spot.orderRows.order(accountId, id, margin)) ?? row;
    if (!live)
      throw new AppError(PaperCode.ORDER_NOT_OPEN, `Order is ${after.status}`, {
        status: 200,
        data: this.presentOrder(after),
      });
    return this.presentOrder(after);
  }

  /** The spot engine's margin fill hook. AUTO_REPAY: each fill's proceeds repay the debt in the received asset (as far as they go). */
  onFill(order: OrderRow, trade: TradeRow, tx: PaperTx): void {
    const scope: Scope = {
      accountId: order.accountId,
      mode: order.wallet === "isolated" ? "isolated" : "cross",
      symbol: order.wallet === "isolated" ? order.symbol : null,
    };
    this.accounts.touch(scope);
    if (order.sideEffect !== "AUTO_REPAY") return;
    const spec = this.spot.venue.spec(order.symbol);
    const units = spec === undefined ? null : pairUnits(spec);
    if (units === null) return;
    const asset = order.side === 0 ? units.base : units.quote;
    const received = order.side === 0 ? BigInt(trade.qtyLots) * units.baseFactor : trade.quote - trade.fee;
    const a = this.accounts.accountOf(scope, tx.ledger);
    const loan = a.loans.get(asset);
    if (loan === undefined) return;
    const owed = loan.principal + loan.interest;
    const free = a.assets.get(asset) ?? 0n;
    let amount = received < owed ? received : owed;
    if (amount > free) amount = free;
    if (amount <= 0n) return;
    const w = emptyWrites();
    try {
      this.lending.doRepay(tx, w, scope, asset, amount);
    } catch (error) {
      this.onError(error, "margin auto-repay failed");
    }
    this.accounts.flushWrites(w);
  }

  // ---- history --------------------------------------------------------------------------------

  private wallets(mode?: MarginAccountModeValue): OrderWallet[] {
    return mode === undefined ? ["cross", "isolated"] : [mode];
  }

  async openOrders(q: MarginListQuery): Promise<MarginOrder[]> {
    const rows = await this.spot.orderRows.orders({ ...q, wallets: this.wallets(q.mode) }, true);
    return rows.map((o) => this.presentOrder(o));
  }

  async orderHistory(q: MarginListQuery): Promise<MarginOrder[]> {
    const rows = await this.spot.orderRows.orders({ ...q, wallets: this.wallets(q.mode) }, false);
    return rows.map((o) => this.presentOrder(o));
  }

  async trades(q: MarginListQuery): Promise<MarginTrade[]> {
    const rows = await this.spot.orderRows.trades({ ...q, wallets: this.wallets(q.mode) });
    return rows.map((t) => this.presentTrade(t));
  }

  presentOrder(o: OrderRow): MarginOrder {
    return presentOrder(this.spot.venue, o);
  }

  presentTrade(t: TradeRow): MarginTrade {
    return presentTrade(this.spot.venue, t);
  }
}

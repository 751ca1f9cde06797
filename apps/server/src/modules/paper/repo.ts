import type { OrderStatusValue, OrderTypeValue, TimeInForceValue } from "@meridian/contracts";
import type { Db, Queryable, SqlValue } from "../../platform/db/types.ts";
import { InsertInto, RowBuffer } from "../ledger/index.ts";
import type { LoadedState, OrderBatch, OrderRow, OrderWallet, TradeRow } from "./rows.ts";

const ORDER_COLUMNS = [
  "id",
  "account_id",
  "client_order_id",
  "symbol",
  "side",
  "type",
  "tif",
  "price_ticks",
  "stop_ticks",
  "qty_lots",
  "quote_qty",
  "status",
  "triggered",
  "book_seq",
  "filled_lots",
  "taker_quote",
  "maker_quote",
  "fees",
  "held",
  "maker_ppm",
  "taker_ppm",
  "created_at",
  "updated_at",
  "wallet",
  "side_effect",
  "tp_trigger_ticks",
  "tp_price_ticks",
  "sl_trigger_ticks",
  "sl_price_ticks",
  "parent_order_id",
  "tpsl_role",
  "oco_order_id",
] as const;
const ORDER_MUTABLE = [
  "price_ticks",
  "status",
  "triggered",
  "book_seq",
  "filled_lots",
  "taker_quote",
  "maker_quote",
  "fees",
  "held",
  "updated_at",
] as const;

/** Money columns read back as text, so no bigint is ever rounded through a JS number. */
const ORDER_SELECT = ORDER_COLUMNS.map((c) =>
  ["taker_quote", "maker_quote", "fees", "held"].includes(c) ? `CAST(${c} AS TEXT) AS ${c}` : c,
).join(", ");
const TRADE_SELECT =
  "id, order_id, account_id, symbol, side, price_ticks, qty_lots, CAST(quote AS TEXT) AS quote, CAST(fee AS TEXT) AS fee, is_maker, counter_order_id, created_at, wallet";

interface OrderRecord {
  id: number;
  account_id: number;
  client_order_id: string;
  symbol: string;
  side: number;
  type: string;
  tif: string | null;
  price_ticks: number | null;
  stop_ticks: number | null;
  qty_lots: number;
  quote_qty: string | null;
  status: string;
  triggered: number;
  book_seq: number | null;
  filled_lots: number;
  taker_quote: string;
  maker_quote: string;
  fees: string;
  held: string;
  maker_ppm: number;
  taker_ppm: number;
  created_at: number;
  updated_at: number;
  wallet: string;
  side_effect: string | null;
  tp_trigger_ticks: number | null;
  tp_price_ticks: number | null;
  sl_trigger_ticks: number | null;
  sl_price_ticks: number | null;
  parent_order_id: number | null;
  tpsl_role: string | null;
  oco_order_id: number | null;
}

interface TradeRecord {
  id: number;
  order_id: number;
  account_id: number;
  symbol: string;
  side: number;
  price_ticks: number;
  qty_lots: number;
  quote: string;
  fee: string;
  is_maker: number;
  counter_order_id: number;
  created_at: number;
  wallet: string;
}

function toOrder(r: OrderRecord): OrderRow {
  return {
    id: Number(r.id),
    accountId: Number(r.account_id),
    wallet: r.wallet as OrderWallet,
    sideEffect: r.side_effect,
    clientOrderId: r.client_order_id,
    symbol: r.symbol,
    side: Number(r.side) === 0 ? 0 : 1,
    type: r.type as OrderTypeValue,
    tif: r.tif as TimeInForceValue | null,
    priceTicks: r.price_ticks === null ? null : Number(r.price_ticks),
    stopTicks: r.stop_ticks === null ? null : Number(r.stop_ticks),
    qtyLots: Number(r.qty_lots),
    quoteQty: r.quote_qty,
    status: r.status as OrderStatusValue,
    triggered: Number(r.triggered) === 1,
    bookSeq: r.book_seq === null ? null : Number(r.book_seq),
    filledLots: Number(r.filled_lots),
    takerQuote: BigInt(r.taker_quote),
    makerQuote: BigInt(r.maker_quote),
    fees: BigInt(r.fees),
    held: BigInt(r.held),
    makerPpm: Number(r.maker_ppm),
    takerPpm: Number(r.taker_ppm),
    createdAt: Number(r.created_at),
    updatedAt: Number(r.updated_at),
    tpTriggerTicks: numOrNull(r.tp_trigger_ticks),
    tpPriceTicks: numOrNull(r.tp_price_ticks),
    slTriggerTicks: numOrNull(r.sl_trigger_ticks),
    slPriceTicks: numOrNull(r.sl_price_ticks),
    parentId: numOrNull(r.parent_order_id),
    tpslRole: r.tpsl_role === "TP" || r.tpsl_role === "SL" ? r.tpsl_role : null,
    ocoId: numOrNull(r.oco_order_id),
  };
}

const numOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

function toTrade(r: TradeRecord): TradeRow {
  return {
    id: Number(r.id),
    orderId: Number(r.order_id),
    accountId: Number(r.account_id),
    wallet: r.wallet as OrderWallet,
    symbol: r.symbol,
    side: Number(r.side) === 0 ? 0 : 1,
    priceTicks: Number(r.price_ticks),
    qtyLots: Number(r.qty_lots),
    quote: BigInt(r.quote),
    fee: BigInt(r.fee),
    isMaker: Number(r.is_maker) === 1,
    counterOrderId: Number(r.counter_order_id),
    createdAt: Number(r.created_at),
  };
}

/** Appends an order's values in ORDER_COLUMNS order. */
function addOrder(params: SqlValue[], o: OrderRow): void {
  params.push(
    o.id,
    o.accountId,
    o.clientOrderId,
    o.symbol,
    o.side,
    o.type,
    o.tif,
    o.priceTicks,
    o.stopTicks,
    o.qtyLots,
    o.quoteQty,
    o.status,
    o.triggered ? 1 : 0,
    o.bookSeq,
    o.filledLots,
    o.takerQuote,
    o.makerQuote,
    o.fees,
    o.held,
    o.makerPpm,
    o.takerPpm,
    o.createdAt,
    o.updatedAt,
    o.wallet,
    o.sideEffect,
    o.tpTriggerTicks,
    o.tpPriceTicks,
    o.slTriggerTicks,
    o.slPriceTicks,
    o.parentId,
    o.tpslRole,
    o.ocoId,
  );
}

function addTrade(params: SqlValue[], t: TradeRow): void {
  params.push(
    t.id,
    t.orderId,
    t.accountId,
    t.symbol,
    t.side,
    t.priceTicks,
    t.qtyLots,
    t.quote,
    t.fee,
    t.isMaker ? 1 : 0,
    t.counterOrderId,
    t.createdAt,
    t.wallet,
  );
}

const UPSERT_ORDERS = new InsertInto(
  `INSERT INTO paper_orders (${ORDER_COLUMNS.join(", ")})`,
  ORDER_COLUMNS.length,
  ` ON CONFLICT (id) DO UPDATE SET ${ORDER_MUTABLE.map((c) => `${c} = excluded.${c}`).join(", ")}`,
);
const INSERT_TRADES = new InsertInto(
  "INSERT INTO paper_trades (id, order_id, account_id, symbol, side, price_ticks, qty_lots, quote, fee, is_maker, counter_order_id, created_at, wallet)",
  13,
);
const ORDER_BY_CLIENT_ID = `SELECT ${ORDER_SELECT} FROM paper_orders WHERE account_id = ? AND client_order_id = ?`;

export interface OrderQuery {
  accountId: number;
  symbol?: string | undefined;
  limit: number;
  before?: number | undefined;
  side?: "BUY" | "SELL" | undefined;
  /** Which wallets' orders (default spot only: spot endpoints never list margin orders). */
  wallets?: readonly OrderWallet[] | undefined;
}

const SPOT: readonly OrderWallet[] = ["spot"];

/** `wallet IN (...)`: spot unless the query names wallets. */
function walletFilter(
  q: { wallets?: readonly OrderWallet[] | undefined },
  where: string[],
  params: SqlValue[],
): void {
  const wallets = q.wallets ?? SPOT;
  where.push(`wallet IN (${wallets.map(() => "?").join(", ")})`);
  params.push(...wallets);
}

/** `side = ?` on the stored side number (0 buy, 1 sell), when a side is asked. */
function sideFilter(q: OrderQuery, where: string[], params: SqlValue[]): void {
  if (q.side === undefined) return;
  where.push("side = ?");
  params.push(q.side === "BUY" ? 0 : 1);
}

/**
 * The WHERE clause of one account's order or trade list and its parameters (the page's
 * `limit` last): `extra` conditions, then the symbol, side, wallets and `before` id asked.
 */
function listWhere(
  q: OrderQuery,
  extra: readonly string[],
  extraParams: readonly SqlValue[],
): { where: string; params: SqlValue[] } {
  const where = ["account_id = ?", ...extra];
  const params: SqlValue[] = [q.accountId, ...extraParams];
  if (q.symbol !== undefined) {
    where.push("symbol = ?");
    params.push(q.symbol);
  }
  sideFilter(q, where, params);
  walletFilter(q, where, params);
  if (q.before !== undefined) {
    where.push("id < ?");
    params.push(q.before);
  }
  params.push(q.limit);
  return { where: where.join(" AND "), params };
}

/** SQL for spot and margin orders and trades (`paper_orders`, `paper_trades`); one text for SQLite and PostgreSQL. */
export class PaperRepo {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  /** The spot batch writer's rows, inside the ledger writer's commit transaction. */
  async write(tx: Queryable, b: OrderBatch): Promise<void> {
    if (b.orders.size > 0) {
      const rows = new RowBuffer(tx, UPSERT_ORDERS);
      for (const o of b.orders.values()) {
        if (rows.full()) await rows.flush();
        addOrder(rows.params, o);
        rows.rows++;
      }
      await rows.flush();
    }
    if (b.trades.length > 0) {
      const rows = new RowBuffer(tx, INSERT_TRADES);
      for (const t of b.trades) {
        if (rows.full()) await rows.flush();
        addTrade(rows.params, t);
        rows.rows++;
      }
      await rows.flush();
    }
  }

  async loadState(): Promise<LoadedState> {
    const max = await this.db.get<Record<string, number | null>>(
      `SELECT (SELECT MAX(id) FROM paper_orders) AS o, (SELECT MAX(id) FROM paper_trades) AS t,
              (SELECT MAX(book_seq) FROM paper_orders) AS s`,
    );
    const open = await this.db.all<OrderRecord>(
      `SELECT ${ORDER_SELECT} FROM paper_orders WHERE status IN ('NEW', 'PARTIALLY_FILLED')
       ORDER BY CASE WHEN book_seq IS NULL THEN 1 ELSE 0 END, book_seq, id`,
    );
    return {
      maxIds: { order: Number(max?.o ?? 0), trade: Number(max?.t ?? 0), bookSeq: Number(max?.s ?? 0) },
      openOrders: open.map(toOrder),
    };
  }

  /** One order of the account in one of `wallets` (default spot). */
  async order(
    accountId: number,
    id: number,
    wallets: readonly OrderWallet[] = SPOT,
  ): Promise<OrderRow | undefined> {
    const where = ["id = ?", "account_id = ?"];
    const params: SqlValue[] = [id, accountId];
    walletFilter({ wallets }, where, params);
    const r = await this.db.get<OrderRecord>(
      `SELECT ${ORDER_SELECT} FROM paper_orders WHERE ${where.join(" AND ")}`,
      params,
    );
    return r === undefined ? undefined : toOrder(r);
  }

  /** The orders that hold these client order ids (unique per account across wallets): one query per account. */
  async ordersByClientIds(
    refs: readonly { accountId: number; clientOrderId: string }[],
  ): Promise<OrderRow[]> {
    const byAccount = new Map<number, string[]>();
    for (const r of refs) {
      const ids = byAccount.get(r.accountId);
      if (ids === undefined) byAccount.set(r.accountId, [r.clientOrderId]);
      else if (!ids.includes(r.clientOrderId)) ids.push(r.clientOrderId);
    }
    const out: OrderRow[] = [];
    for (const [accountId, ids] of byAccount) {
      const rows =
        ids.length === 1
          ? await this.db.all<OrderRecord>(ORDER_BY_CLIENT_ID, [accountId, ids[0] ?? ""])
          : await this.db.all<OrderRecord>(
              `SELECT ${ORDER_SELECT} FROM paper_orders WHERE account_id = ? AND client_order_id IN (${ids.map(() => "?").join(", ")})`,
              [accountId, ...ids],
            );
      for (const r of rows) out.push(toOrder(r));
    }
    return out;
  }

  /** Client order ids are unique per account across wallets: callers check `wallet`. */
  async orderByClientId(accountId: number, clientOrderId: string): Promise<OrderRow | undefined> {
    const r = await this.db.get<OrderRecord>(ORDER_BY_CLIENT_ID, [accountId, clientOrderId]);
    return r === undefined ? undefined : toOrder(r);
  }

  async orders(q: OrderQuery, open: boolean): Promise<OrderRow[]> {
    const status = open
      ? "status IN ('NEW', 'PARTIALLY_FILLED')"
      : "status NOT IN ('NEW', 'PARTIALLY_FILLED')";
    const { where, params } = listWhere(q, [status], []);
    const rows = await this.db.all<OrderRecord>(
      `SELECT ${ORDER_SELECT} FROM paper_orders WHERE ${where} ORDER BY id DESC LIMIT ?`,
      params,
    );
    return rows.map(toOrder);
  }

  /** Trades after `id` (every account), oldest first: the ones a writer that died may not have pushed. */
  async tradesAfter(id: number, limit: number): Promise<TradeRow[]> {
    const rows = await this.db.all<TradeRecord>(
      `SELECT ${TRADE_SELECT} FROM paper_trades WHERE id > ? ORDER BY id LIMIT ?`,
      [id, limit],
    );
    return rows.map(toTrade);
  }

  async ordersByIds(ids: readonly number[]): Promise<OrderRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all<OrderRecord>(
      `SELECT ${ORDER_SELECT} FROM paper_orders WHERE id IN (${ids.map(() => "?").join(", ")})`,
      [...ids],
    );
    return rows.map(toOrder);
  }

  async trades(q: OrderQuery & { orderId?: number }): Promise<TradeRow[]> {
    const { where, params } =
      q.orderId === undefined ? listWhere(q, [], []) : listWhere(q, ["order_id = ?"], [q.orderId]);
    const rows = await this.db.all<TradeRecord>(
      `SELECT ${TRADE_SELECT} FROM paper_trades WHERE ${where} ORDER BY id DESC LIMIT ?`,
      params,
    );
    return rows.map(toTrade);
  }
}

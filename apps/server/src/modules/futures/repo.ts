import type {
  FuturesOrderStatus,
  FuturesOrderType,
  FuturesTimeInForce,
  PositionSideValue,
} from "@meridian/contracts";
import { ALL_PERP_CONTRACTS, type MarginMode, type PerpFamily, type PerpPosition } from "@meridian/domain";
import type { Db, Queryable, SqlValue } from "../../platform/db/types.ts";
import { type PlanState, withPlans, writePlans } from "./plans.ts";

/**
 * A futures order as stored (prices in contract ticks, sizes in lots, money in minor units
 * of the contract's margin asset; `filledNotional` of a coin-M order is its value in coin
 * in `costScale` units).
 */
export interface FutOrderRow {
  id: number;
  accountId: number;
  symbol: string;
  side: "BUY" | "SELL";
  positionSide: PositionSideValue;
  type: FuturesOrderType;
  priceTicks: number | null;
  stopTicks: number | null;
  qtyLots: number;
  filledLots: number;
  filledNotional: bigint;
  reduceOnly: boolean;
  closePosition: boolean;
  /** A limit order's time in force; absent: GTC (and every other type). */
  timeInForce?: FuturesTimeInForce | undefined;
  /** The client's id, or `#<id>` (unique per account). */
  clientOrderId: string;
  status: FuturesOrderStatus;
  reason: string | null;
  createdAt: number;
  updatedAt: number;
  /** Limit plans and trailing stops: their state beyond the row (`plans.ts`). */
  plan?: PlanState | undefined;
}

export interface FutTradeRow {
  id: number;
  orderId: number;
  accountId: number;
  symbol: string;
  side: "BUY" | "SELL";
  positionSide: PositionSideValue;
  priceTicks: number;
  qtyLots: number;
  realisedPnl: bigint;
  fee: bigint;
  isMaker: boolean;
  liquidation: boolean;
  createdAt: number;
}

export interface FundingRow {
  id: number;
  accountId: number;
  symbol: string;
  positionSide: PositionSideValue;
  rateE8: bigint;
  markTicks: number;
  amount: bigint;
  createdAt: number;
}

/**
 * A wallet transfer of one account (`SPOT`, `FUTURES`, `CROSS_MARGIN`, `ISOLATED_MARGIN`
 * with its `symbol`); its id is the id the transfer answers.
 */
export interface TransferRow {
  id: number;
  accountId: number;
  from: string;
  to: string;
  symbol: string | null;
  asset: string;
  amount: bigint;
  createdAt: number;
}

/** A transfer row with the client id it was made with, if any. */
export interface TransferRecordRow extends TransferRow {
  clientTransferId: string | null;
}

export interface TransferQuery {
  accountId: number;
  asset?: string | undefined;
  /** Only the transfers out of this wallet. */
  from?: string | undefined;
  /** `createdAt` at or after, and before. */
  since?: number | undefined;
  until?: number | undefined;
  /** Only ids below (pages newest first). */
  before?: number | undefined;
  /** Only the transfer made with this client id. */
  clientTransferId?: string | undefined;
  limit: number;
}

/** A perpetual's funding rate as it settled at `fundingTime`. */
export interface FundingRateRow {
  id: number;
  symbol: string;
  rateE8: bigint;
  markTicks: number;
  fundingTime: number;
}

/** A position with what the domain type does not carry. */
export interface StoredPosition {
  position: PerpPosition;
  realisedPnl: bigint;
}

export interface FuturesState {
  maxIds: { order: number; trade: number; funding: number; transfer: number; rate: number };
  dualSide: Map<number, boolean>;
  settings: Array<{ accountId: number; symbol: string; leverage: number; marginMode: MarginMode }>;
  positions: StoredPosition[];
  openOrders: FutOrderRow[];
}

/** Everything one futures command changed, written in the paper writer's transaction. */
export interface FuturesWrites {
  orders: Map<number, FutOrderRow>;
  trades: FutTradeRow[];
  funding: FundingRow[];
  transfers: TransferRow[];
  rates: FundingRateRow[];
  positions: Map<string, StoredPosition>;
  settings: Map<string, { accountId: number; symbol: string; leverage: number; marginMode: MarginMode }>;
  dualSide: Map<number, boolean>;
}

export const emptyWrites = (): FuturesWrites => ({
  orders: new Map(),
  trades: [],
  funding: [],
  transfers: [],
  rates: [],
  positions: new Map(),
  settings: new Map(),
  dualSide: new Map(),
});

const ORDER_SELECT =
  "id, account_id, symbol, side, position_side, type, price_ticks, stop_ticks, qty_lots, filled_lots, CAST(filled_notional AS TEXT) AS filled_notional, reduce_only, close_position, time_in_force, client_order_id, status, reason, created_at, updated_at";

interface OrderRecord {
  id: number;
  account_id: number;
  symbol: string;
  side: string;
  position_side: string;
  type: string;
  price_ticks: number | null;
  stop_ticks: number | null;
  qty_lots: number;
  filled_lots: number;
  filled_notional: string;
  reduce_only: number;
  close_position: number;
  time_in_force: string | null;
  client_order_id: string | null;
  status: string;
  reason: string | null;
  created_at: number;
  updated_at: number;
}

const toOrder = (r: OrderRecord): FutOrderRow => ({
  id: Number(r.id),
  accountId: Number(r.account_id),
  symbol: r.symbol,
  side: r.side === "SELL" ? "SELL" : "BUY",
  positionSide: r.position_side as PositionSideValue,
  type: r.type as FuturesOrderType,
  priceTicks: r.price_ticks === null ? null : Number(r.price_ticks),
  stopTicks: r.stop_ticks === null ? null : Number(r.stop_ticks),
  qtyLots: Number(r.qty_lots),
  filledLots: Number(r.filled_lots),
  filledNotional: BigInt(r.filled_notional),
  reduceOnly: Number(r.reduce_only) === 1,
  closePosition: Number(r.close_position) === 1,
  ...(r.time_in_force === null ? {} : { timeInForce: r.time_in_force as FuturesTimeInForce }),
  clientOrderId: r.client_order_id ?? `#${r.id}`,
  status: r.status as FuturesOrderStatus,
  reason: r.reason,
  createdAt: Number(r.created_at),
  updatedAt: Number(r.updated_at),
});

export interface HistoryQuery {
  accountId: number;
  symbol?: string | undefined;
  /** Only this margin family's contracts (both when absent). */
  family?: PerpFamily | undefined;
  limit: number;
  before?: number | undefined;
  /** Trades only: the fills of one order. */
  orderId?: number | undefined;
}

function where(q: HistoryQuery, extra: string[] = []): { sql: string; params: SqlValue[] } {
  const w = ["account_id = ?", ...extra];
  const params: SqlValue[] = [q.accountId];
  if (q.symbol !== undefined) {
    w.push("symbol = ?");
    params.push(q.symbol);
  }
  if (q.family !== undefined) {
    const symbols = ALL_PERP_CONTRACTS.filter((c) => c.family === q.family).map((c) => c.symbol);
    w.push(`symbol IN (${symbols.map(() => "?").join(", ")})`);
    params.push(...symbols);
  }
  if (q.before !== undefined) {
    w.push("id < ?");
    params.push(q.before);
  }
  params.push(q.limit);
  return { sql: `WHERE ${w.join(" AND ")} ORDER BY id DESC LIMIT ?`, params };
}

const upsert = (table: string, cols: readonly string[], keys: readonly string[]): string =>
  `INSERT INTO ${table} (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")}) ON CONFLICT (${keys.join(", ")}) DO UPDATE SET ${cols
    .filter((c) => !keys.includes(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(", ")}`;

const ORDER_COLS = [
  "id",
  "account_id",
  "symbol",
  "side",
  "position_side",
  "type",
  "price_ticks",
  "stop_ticks",
  "qty_lots",
  "filled_lots",
  "filled_notional",
  "reduce_only",
  "close_position",
  "time_in_force",
  "client_order_id",
  "status",
  "reason",
  "created_at",
  "updated_at",
] as const;
const POSITION_COLS = [
  "account_id",
  "symbol",
  "position_side",
  "margin_mode",
  "leverage",
  "lots",
  "cost",
  "isolated_margin",
  "realised_pnl",
  "updated_at",
] as const;

/** SQL of the futures module; one text for SQLite and PostgreSQL. */
export class FuturesRepo {
  readonly db: Db;

  constructor(db: Db) {
    this.db = db;
  }

  async write(tx: Queryable, w: FuturesWrites, now: number): Promise<void> {
    for (const [accountId, dual] of w.dualSide) {
      await tx.run(upsert("futures_accounts", ["account_id", "dual_side"], ["account_id"]), [
        accountId,
        dual ? 1 : 0,
      ]);
    }
    for (const s of w.settings.values()) {
      await tx.run(
        upsert(
          "futures_settings",
          ["account_id", "symbol", "leverage", "margin_mode"],
          ["account_id", "symbol"],
        ),
        [s.accountId, s.symbol, s.leverage, s.marginMode],
      );
    }
    for (const { position: p, realisedPnl } of w.positions.values()) {
      await tx.run(upsert("futures_positions", POSITION_COLS, ["account_id", "symbol", "position_side"]), [
        p.accountId,
        p.symbol,
        p.positionSide,
        p.marginMode,
        p.leverage,
        p.lots,
        p.cost,
        p.isolatedMargin,
        realisedPnl,
        now,
      ]);
    }
    for (const o of w.orders.values()) {
      await tx.run(upsert("futures_orders", ORDER_COLS, ["id"]), [
        o.id,
        o.accountId,
        o.symbol,
        o.side,
        o.positionSide,
        o.type,
        o.priceTicks,
        o.stopTicks,
        o.qtyLots,
        o.filledLots,
        o.filledNotional,
        o.reduceOnly ? 1 : 0,
        o.closePosition ? 1 : 0,
        o.timeInForce ?? null,
        o.clientOrderId,
        o.status,
        o.reason,
        o.createdAt,
        o.updatedAt,
      ]);
    }
    await writePlans(tx, w.orders.values());
    for (const t of w.trades) {
      await tx.run(
        `INSERT INTO futures_trades (id, order_id, account_id, symbol, side, position_side, price_ticks, qty_lots, realised_pnl, fee, is_maker, liquidation, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          t.id,
          t.orderId,
          t.accountId,
          t.symbol,
          t.side,
          t.positionSide,
          t.priceTicks,
          t.qtyLots,
          t.realisedPnl,
          t.fee,
          t.isMaker ? 1 : 0,
          t.liquidation ? 1 : 0,
          t.createdAt,
        ],
      );
    }
    for (const f of w.funding) {
      await tx.run(
        `INSERT INTO futures_funding (id, account_id, symbol, position_side, rate_e8, mark_ticks, amount, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [f.id, f.accountId, f.symbol, f.positionSide, f.rateE8, f.markTicks, f.amount, f.createdAt],
      );
    }
    for (const t of w.transfers) {
      await tx.run(
        `INSERT INTO wallet_transfers (id, account_id, from_wallet, to_wallet, symbol, asset, amount, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [t.id, t.accountId, t.from, t.to, t.symbol, t.asset, t.amount, t.createdAt],
      );
    }
    for (const r of w.rates) {
      await tx.run(
        `INSERT INTO futures_funding_rates (id, symbol, rate_e8, mark_ticks, funding_time) VALUES (?, ?, ?, ?, ?)`,
        [r.id, r.symbol, r.rateE8, r.markTicks, r.fundingTime],
      );
    }
  }

  async load(): Promise<FuturesState> {
    const max = await this.db.get<Record<string, number | null>>(
      `SELECT (SELECT MAX(id) FROM futures_orders) AS o, (SELECT MAX(id) FROM futures_trades) AS t,
              (SELECT MAX(id) FROM futures_funding) AS f, (SELECT MAX(id) FROM wallet_transfers) AS x,
              (SELECT MAX(id) FROM futures_funding_rates) AS r`,
    );
    const dual = await this.db.all<{ account_id: number; dual_side: number }>(
      "SELECT account_id, dual_side FROM futures_accounts",
    );
    const settings = await this.db.all<{
      account_id: number;
      symbol: string;
      leverage: number;
      margin_mode: string;
    }>("SELECT account_id, symbol, leverage, margin_mode FROM futures_settings");
    const positions = await this.db.all<{
      account_id: number;
      symbol: string;
      position_side: string;
      margin_mode: string;
      leverage: number;
      lots: number;
      cost: string;
      isolated_margin: string;
      realised_pnl: string;
    }>(
      `SELECT account_id, symbol, position_side, margin_mode, leverage, lots, CAST(cost AS TEXT) AS cost,
              CAST(isolated_margin AS TEXT) AS isolated_margin, CAST(realised_pnl AS TEXT) AS realised_pnl
       FROM futures_positions`,
    );
    const open = await this.db.all<OrderRecord>(
      `SELECT ${ORDER_SELECT} FROM futures_orders WHERE status IN ('NEW', 'PARTIALLY_FILLED') ORDER BY id`,
    );
    return {
      maxIds: {
        order: Number(max?.o ?? 0),
        trade: Number(max?.t ?? 0),
        funding: Number(max?.f ?? 0),
        transfer: Number(max?.x ?? 0),
        rate: Number(max?.r ?? 0),
      },
      dualSide: new Map(dual.map((d) => [Number(d.account_id), Number(d.dual_side) === 1])),
      settings: settings.map((s) => ({
        accountId: Number(s.account_id),
        symbol: s.symbol,
        leverage: Number(s.leverage),
        marginMode: s.margin_mode === "isolated" ? "isolated" : "cross",
      })),
      positions: positions.map((r) => ({
        position: {
          accountId: Number(r.account_id),
          symbol: r.symbol,
          positionSide: r.position_side as PositionSideValue,
          marginMode: r.margin_mode === "isolated" ? "isolated" : "cross",
          leverage: Number(r.leverage),
          lots: Number(r.lots),
          cost: BigInt(r.cost),
          isolatedMargin: BigInt(r.isolated_margin),
        },
        realisedPnl: BigInt(r.realised_pnl),
      })),
      openOrders: await withPlans(this.db, open.map(toOrder)),
    };
  }

  async orders(q: HistoryQuery, open: boolean): Promise<FutOrderRow[]> {
    const w = where(q, [
      open ? "status IN ('NEW', 'PARTIALLY_FILLED')" : "status NOT IN ('NEW', 'PARTIALLY_FILLED')",
    ]);
    return withPlans(
      this.db,
      (await this.db.all<OrderRecord>(`SELECT ${ORDER_SELECT} FROM futures_orders ${w.sql}`, w.params)).map(
        toOrder,
      ),
    );
  }

  async order(accountId: number, id: number): Promise<FutOrderRow | undefined> {
    const r = await this.db.get<OrderRecord>(
      `SELECT ${ORDER_SELECT} FROM futures_orders WHERE id = ? AND account_id = ?`,
      [id, accountId],
    );
    return r === undefined ? undefined : (await withPlans(this.db, [toOrder(r)]))[0];
  }

  async orderByClientId(accountId: number, clientOrderId: string): Promise<FutOrderRow | undefined> {
    const r = await this.db.get<OrderRecord>(
      `SELECT ${ORDER_SELECT} FROM futures_orders WHERE account_id = ? AND client_order_id = ?`,
      [accountId, clientOrderId],
    );
    return r === undefined ? undefined : (await withPlans(this.db, [toOrder(r)]))[0];
  }

  async trades(q: HistoryQuery): Promise<FutTradeRow[]> {
    const w = where(q, q.orderId === undefined ? [] : [`order_id = ${Number(q.orderId)}`]);
    const rows = await this.db.all<{
      id: number;
      order_id: number;
      account_id: number;
      symbol: string;
      side: string;
      position_side: string;
      price_ticks: number;
      qty_lots: number;
      realised_pnl: string;
      fee: string;
      is_maker: number;
      liquidation: number;
      created_at: number;
    }>(
      `SELECT id, order_id, account_id, symbol, side, position_side, price_ticks, qty_lots,
              CAST(realised_pnl AS TEXT) AS realised_pnl, CAST(fee AS TEXT) AS fee, is_maker, liquidation, created_at
       FROM futures_trades ${w.sql}`,
      w.params,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      orderId: Number(r.order_id),
      accountId: Number(r.account_id),
      symbol: r.symbol,
      side: r.side === "SELL" ? "SELL" : "BUY",
      positionSide: r.position_side as PositionSideValue,
      priceTicks: Number(r.price_ticks),
      qtyLots: Number(r.qty_lots),
      realisedPnl: BigInt(r.realised_pnl),
      fee: BigInt(r.fee),
      isMaker: Number(r.is_maker) === 1,
      liquidation: Number(r.liquidation) === 1,
      createdAt: Number(r.created_at),
    }));
  }

  /** An account's wallet transfers, newest first. */
  async transfers(q: TransferQuery): Promise<TransferRecordRow[]> {
    const w = ["t.account_id = ?"];
    const params: SqlValue[] = [q.accountId];
    const add = (sql: string, v: SqlValue | undefined) => {
      if (v === undefined) return;
      w.push(sql);
      params.push(v);
    };
    add("t.asset = ?", q.asset);
    add("t.from_wallet = ?", q.from);
    add("t.created_at >= ?", q.since);
    add("t.created_at < ?", q.until);
    add("t.id < ?", q.before);
    add("c.client_transfer_id = ?", q.clientTransferId);
    params.push(q.limit);
    const rows = await this.db.all<{
      id: number | string;
      account_id: number | string;
      from_wallet: string;
      to_wallet: string;
      symbol: string | null;
      asset: string;
      amount: string;
      created_at: number | string;
      client_transfer_id: string | null;
    }>(
      `SELECT t.id, t.account_id, t.from_wallet, t.to_wallet, t.symbol, t.asset, CAST(t.amount AS TEXT) AS amount,
              t.created_at, c.client_transfer_id
       FROM wallet_transfers t
       LEFT JOIN wallet_transfer_ids c ON c.account_id = t.account_id AND c.tran_id = t.id
       WHERE ${w.join(" AND ")} ORDER BY t.id DESC LIMIT ?`,
      params,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      accountId: Number(r.account_id),
      from: r.from_wallet,
      to: r.to_wallet,
      symbol: r.symbol,
      asset: r.asset,
      amount: BigInt(r.amount),
      createdAt: Number(r.created_at),
      clientTransferId: r.client_transfer_id,
    }));
  }

  /** A perpetual's settled funding rates, newest first; `offset` rows skipped. */
  async fundingRates(symbol: string, limit: number, offset: number): Promise<FundingRateRow[]> {
    const rows = await this.db.all<{
      id: number | string;
      symbol: string;
      rate_e8: string;
      mark_ticks: number | string;
      funding_time: number | string;
    }>(
      `SELECT id, symbol, CAST(rate_e8 AS TEXT) AS rate_e8, mark_ticks, funding_time FROM futures_funding_rates
       WHERE symbol = ? ORDER BY id DESC LIMIT ? OFFSET ?`,
      [symbol, limit, offset],
    );
    return rows.map((r) => ({
      id: Number(r.id),
      symbol: r.symbol,
      rateE8: BigInt(r.rate_e8),
      markTicks: Number(r.mark_ticks),
      fundingTime: Number(r.funding_time),
    }));
  }

  async funding(q: HistoryQuery): Promise<FundingRow[]> {
    const w = where(q);
    const rows = await this.db.all<{
      id: number;
      account_id: number;
      symbol: string;
      position_side: string;
      rate_e8: string;
      mark_ticks: number;
      amount: string;
      created_at: number;
    }>(
      `SELECT id, account_id, symbol, position_side, CAST(rate_e8 AS TEXT) AS rate_e8, mark_ticks,
              CAST(amount AS TEXT) AS amount, created_at FROM futures_funding ${w.sql}`,
      w.params,
    );
    return rows.map((r) => ({
      id: Number(r.id),
      accountId: Number(r.account_id),
      symbol: r.symbol,
      positionSide: r.position_side as PositionSideValue,
      rateE8: BigInt(r.rate_e8),
      markTicks: Number(r.mark_ticks),
      amount: BigInt(r.amount),
      createdAt: Number(r.created_at),
    }));
  }
}

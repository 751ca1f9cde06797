import type {
  ClosedPositionRecord,
  FundingRecord,
  FuturesOrder,
  FuturesOrderDetail,
  FuturesTrade,
  positionHistoryQuerySchema,
} from "@meridian/contracts";
import { FuturesCode } from "@meridian/contracts";
import { closedPositions } from "@meridian/domain";
import type { z } from "zod";
import { AppError } from "../../platform/errors.ts";
import { presentClosedPosition, presentFunding, presentOrder, presentTrade, usdtText } from "./present.ts";
import type { FutOrderRow, FuturesRepo, HistoryQuery } from "./repo.ts";

const POSITION_HISTORY_FILLS = 50_000;

/** An order by its id or by the client's id. */
export type FuturesOrderRef = { id: number } | { clientOrderId: string };

/**
 * The committed futures rows as answers, read from the database on every instance:
 * orders, fills, funding, and closed positions replayed from the fills.
 */
export class FuturesHistory {
  private readonly repo: FuturesRepo;

  constructor(repo: FuturesRepo) {
    this.repo = repo;
  }

  async orderRow(accountId: number, ref: FuturesOrderRef): Promise<FutOrderRow | undefined> {
    return "id" in ref
      ? this.repo.order(accountId, ref.id)
      : this.repo.orderByClientId(accountId, ref.clientOrderId);
  }

  /** One order of the account by its id or client id (the bot API's order lookup), or undefined. */
  async order(accountId: number, ref: FuturesOrderRef): Promise<FuturesOrder | undefined> {
    const row = await this.orderRow(accountId, ref);
    return row === undefined ? undefined : presentOrder(row);
  }

  async openOrders(q: HistoryQuery): Promise<FuturesOrder[]> {
    return (await this.repo.orders(q, true)).map(presentOrder);
  }

  async orderHistory(q: HistoryQuery): Promise<FuturesOrder[]> {
    return (await this.repo.orders(q, false)).map(presentOrder);
  }

  async trades(q: HistoryQuery): Promise<FuturesTrade[]> {
    return (await this.repo.trades(q)).map(presentTrade);
  }

  /** One order of the account with its fills (/order/mcp); ORDER_NOT_FOUND for another account's. */
  async orderDetail(accountId: number, id: number): Promise<FuturesOrderDetail> {
    const order = await this.repo.order(accountId, id);
    if (order === undefined)
      throw new AppError(FuturesCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    const fills = await this.repo.trades({ accountId, orderId: id, limit: 1000 });
    const pnl = fills.reduce((s, f) => s + f.realisedPnl, 0n);
    const fee = fills.reduce((s, f) => s + f.fee, 0n);
    return {
      order: presentOrder(order),
      fills: fills.map(presentTrade),
      realisedPnl: usdtText(pnl),
      fee: usdtText(fee),
    };
  }

  /**
   * Closed positions replayed from the account's fills, newest first (/record/mcp). Reads
   * up to POSITION_HISTORY_FILLS fills: a paper account past that sees its latest history.
   */
  async positionHistory(accountId: number, q: z.output<typeof positionHistoryQuerySchema>) {
    const rows = await this.repo.trades({
      accountId,
      symbol: q.symbol,
      family: q.family,
      limit: POSITION_HISTORY_FILLS,
    });
    rows.reverse();
    const closed = closedPositions(
      rows.map((r) => ({
        symbol: r.symbol,
        positionSide: r.positionSide,
        side: r.side,
        lots: r.qtyLots,
        ticks: r.priceTicks,
        realisedPnl: r.realisedPnl,
        fee: r.fee,
        liquidation: r.liquidation,
        time: r.createdAt,
      })),
    );
    const before = q.before;
    return closed
      .filter((c) => before === undefined || c.closeTime < before)
      .slice(0, q.limit)
      .map(presentClosedPosition) satisfies ClosedPositionRecord[];
  }

  async funding(q: HistoryQuery): Promise<FundingRecord[]> {
    return (await this.repo.funding(q)).map(presentFunding);
  }
}

import {
  type FuturesAccount,
  FuturesCode,
  type FuturesOrder,
  type FuturesOrderBody,
  type FuturesOrderType,
  type FuturesPosition,
  type FuturesSettings,
  type FuturesTransferBody,
  type MarginAdjustType,
  type PositionSideValue,
} from "@meridian/contracts";
import { type MarginMode, priceToTicks, toMinor } from "@meridian/domain";
import { KeyedMutex } from "../../platform/db/index.ts";
import { AppError } from "../../platform/errors.ts";
import type { LedgerTx } from "../ledger/index.ts";
import type { FuturesEngine } from "./engine.ts";
import type { FuturesHistory, FuturesOrderRef } from "./history.ts";
import { presentOrder } from "./present.ts";
import type { FutOrderRow, FuturesRepo } from "./repo.ts";
import type { WalletTransferIds } from "./transfer-ids.ts";
import { type FuturesViews, perpContractOf } from "./views.ts";

/** A spot <-> futures transfer made (or found, sent again with its client id). */
export interface FuturesTransferDone {
  tranId: number;
  account: FuturesAccount;
}

/** Take-profit and stop-loss trigger prices placed with an order (close-position legs on the mark). */
export interface AttachedTpsl {
  takeProfit?: string | undefined;
  stopLoss?: string | undefined;
}

/** A positive amount of `asset` in minor units, or the envelope's invalid-amount refusal. */
function positiveAmount(asset: string, amount: string): bigint {
  const minor = toMinor(asset, amount);
  if (minor === null || minor <= 0n)
    throw new AppError(FuturesCode.ORDER_INVALID, "Invalid amount", {
      status: 200,
      data: { field: "amount" },
    });
  return minor;
}

export interface FuturesCommandsOptions {
  engine: FuturesEngine;
  repo: FuturesRepo;
  views: FuturesViews;
  history: FuturesHistory;
  transferIds: WalletTransferIds;
  /** Runs an engine command in the ledger writer; resolves once it is committed (`FuturesService.exec`). */
  exec<T>(fn: (tx: LedgerTx) => T): Promise<T>;
}

/**
 * The futures commands as the API asks for them: orders (once per client order id),
 * cancels, closing positions, TP/SL, wallet transfers, isolated margin and the account's
 * settings. Each runs one engine command in the ledger writer, and answers from the
 * committed rows or the engine's views.
 */
export class FuturesCommands {
  private readonly engine: FuturesEngine;
  private readonly repo: FuturesRepo;
  private readonly views: FuturesViews;
  private readonly history: FuturesHistory;
  private readonly transferIds: WalletTransferIds;
  private readonly exec: FuturesCommandsOptions["exec"];
  /** Placements with the same client order id run one after another (`once`). */
  private readonly orderIds = new KeyedMutex();

  constructor(o: FuturesCommandsOptions) {
    this.engine = o.engine;
    this.repo = o.repo;
    this.views = o.views;
    this.history = o.history;
    this.transferIds = o.transferIds;
    this.exec = o.exec;
  }

  /**
   * Runs `place` unless the account already has an order with `clientOrderId`: then
   * answers that order. On the writer, commands with the same id run one after another
   * and each looks the id up after the one before it committed, so a retry (a lost
   * answer, a failover, two requests at once) never places a second order.
   */
  private async once<T>(
    accountId: number,
    clientOrderId: string | undefined,
    place: () => Promise<T>,
    stored: (row: FutOrderRow) => T,
  ): Promise<T> {
    if (clientOrderId === undefined) return place();
    return this.orderIds.run(`${accountId}\u0000${clientOrderId}`, async () => {
      const row = await this.repo.orderByClientId(accountId, clientOrderId);
      return row === undefined ? place() : stored(row);
    });
  }

  /**
   * Places an order; `attached` adds its take-profit and stop-loss legs in the same
   * command (one commit: a retry with the order's client id finds them placed too).
   */
  async place(accountId: number, body: FuturesOrderBody, attached: AttachedTpsl = {}): Promise<FuturesOrder> {
    const legs: Array<[FuturesOrderType, string]> = [];
    if (attached.takeProfit !== undefined) legs.push(["TAKE_PROFIT_MARKET", attached.takeProfit]);
    if (attached.stopLoss !== undefined) legs.push(["STOP_MARKET", attached.stopLoss]);
    // The legs' prices are checked before anything runs: a refusal after the order filled would half-apply.
    for (const [, price] of legs)
      if (!priceToTicks(perpContractOf(body.symbol).instrument, price).ok)
        throw new AppError(FuturesCode.ORDER_INVALID, "Invalid take-profit or stop-loss price", {
          status: 200,
          data: { field: "stopPrice" },
        });
    return this.once(
      accountId,
      body.clientOrderId,
      async () =>
        presentOrder(
          await this.exec(() => {
            const order = this.engine.place(accountId, body);
            for (const [type, stopPrice] of legs)
              this.engine.place(accountId, {
                symbol: order.symbol,
                side: order.side === "BUY" ? "SELL" : "BUY",
                positionSide: order.positionSide,
                type,
                stopPrice,
                closePosition: true,
              });
            return order;
          }),
        ),
      presentOrder,
    );
  }

  async cancel(accountId: number, ref: FuturesOrderRef): Promise<FuturesOrder> {
    const id = "id" in ref ? ref.id : (await this.history.orderRow(accountId, ref))?.id;
    const o = id === undefined ? null : await this.exec(() => this.engine.cancel(accountId, id));
    if (o !== null) return presentOrder(o);
    const row = id === undefined ? undefined : await this.repo.order(accountId, id);
    if (row === undefined)
      throw new AppError(FuturesCode.ORDER_NOT_FOUND, "Order not found", { status: 200 });
    throw new AppError(FuturesCode.ORDER_NOT_OPEN, `Order is ${row.status}`, {
      status: 200,
      data: presentOrder(row),
    });
  }

  async closeAll(accountId: number, symbol?: string): Promise<FuturesOrder[]> {
    return (await this.exec(() => this.engine.closeAll(accountId, symbol))).map(presentOrder);
  }

  async setTpsl(
    accountId: number,
    body: {
      symbol: string;
      positionSide: PositionSideValue;
      takeProfit?: string | undefined;
      stopLoss?: string | undefined;
      /** Names the one leg set (the bot API's TP/SL order); refused with both. */
      clientOrderId?: string | undefined;
    },
  ): Promise<FuturesOrder[]> {
    return this.once(
      accountId,
      body.clientOrderId,
      async () => {
        const list = await this.exec(() =>
          this.engine.setTpsl(
            accountId,
            body.symbol,
            body.positionSide,
            body.takeProfit,
            body.stopLoss,
            body.clientOrderId,
          ),
        );
        return list.map(presentOrder);
      },
      (row) => [presentOrder(row)],
    );
  }

  /**
   * Spot <-> futures wallet; with `clientTransferId`, made once however often it is sent.
   * Answers the transfer's id (its `futures_transfers` row) and the account after it.
   */
  async transfer(accountId: number, body: FuturesTransferBody): Promise<FuturesTransferDone> {
    const asset = body.asset ?? "USDT";
    const minor = toMinor(asset, body.amount);
    if (minor === null || minor <= 0n)
      throw new AppError(FuturesCode.TRANSFER_EXCEEDS, "Invalid amount", {
        status: 200,
        data: { field: "amount" },
      });
    const [from, to] = body.direction === "IN" ? ["SPOT", "FUTURES"] : ["FUTURES", "SPOT"];
    return this.transferIds.once(
      accountId,
      body.clientTransferId,
      async (record) => {
        const tranId = await this.exec((tx) => {
          const id = this.engine.transfer(accountId, body.direction, minor, { wallet: "SPOT" }, asset);
          record?.(tx, { tranId: id, from, to, asset, amount: minor });
          return id;
        });
        return { tranId, account: this.views.account(accountId, asset) };
      },
      (stored) => ({ tranId: stored.tranId, account: this.views.account(accountId, stored.asset) }),
    );
  }

  /**
   * Futures wallet to futures wallet of one asset between a master and its sub-account;
   * `record` adds the caller's rows to the same commit.
   */
  async subTransfer(
    from: number,
    to: number,
    amount: bigint,
    record: (tx: LedgerTx) => void,
    asset: string,
  ): Promise<void> {
    await this.exec((tx) => {
      this.engine.subTransfer(from, to, amount, asset);
      record(tx);
    });
  }

  async adjustMargin(
    accountId: number,
    body: { symbol: string; positionSide: PositionSideValue; type: MarginAdjustType; amount: string },
  ): Promise<FuturesPosition> {
    const minor = positiveAmount(perpContractOf(body.symbol).marginAsset, body.amount);
    const stored = await this.exec(() =>
      this.engine.adjustMargin(accountId, body.symbol, body.positionSide, body.type, minor),
    );
    const shown = this.views
      .positions(accountId)
      .find((p) => p.symbol === stored.position.symbol && p.positionSide === stored.position.positionSide);
    if (shown === undefined) throw new Error("adjusted position vanished");
    return shown;
  }

  async setLeverage(accountId: number, symbol: string, leverage: number): Promise<FuturesSettings> {
    await this.exec(() => this.engine.setLeverage(accountId, symbol, leverage));
    return this.views.settings(accountId, symbol);
  }

  async setMarginMode(accountId: number, symbol: string, mode: MarginMode): Promise<FuturesSettings> {
    await this.exec(() => this.engine.setMarginMode(accountId, symbol, mode));
    return this.views.settings(accountId, symbol);
  }

  async setPositionMode(accountId: number, dual: boolean): Promise<{ dualSidePosition: boolean }> {
    await this.exec(() => this.engine.setPositionMode(accountId, dual));
    return { dualSidePosition: dual };
  }
}

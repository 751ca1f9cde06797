import type { FuturesOrderBody } from "@meridian/contracts";
import { type MarginMode, perpContract } from "@meridian/domain";
import type { LedgerTx } from "../ledger/index.ts";
import { FuturesAccount } from "./account.ts";
import type { PerpBook } from "./book.ts";
import { settleFunding } from "./funding.ts";
import { riskPass } from "./liquidation.ts";
import type { MarkBoard } from "./marks.ts";
import { FuturesOrders } from "./orders.ts";
import type { FutOrderRow, FuturesState, FuturesWrites, StoredPosition, TransferRow } from "./repo.ts";
import { type Changes, EngineState, type FeeRates } from "./state.ts";

export type { Changes, FeeRates } from "./state.ts";

/**
 * The futures book in memory: settings, positions (mirrored into the domain's
 * `RiskBook`), open limit and trigger orders. Commands run inside the ledger writer
 * (`LedgerWriter.transact`): money moves as journal entries in the shared paper ledger,
 * and the rows they change are written in that same transaction.
 *
 * This class is the engine's one surface; its parts share one `EngineState` (memory,
 * positions and PnL, the command's rows): `FuturesOrders` (placement, matching,
 * triggers, TP/SL), `FuturesAccount` (transfers, settings, isolated margin),
 * `liquidation.ts` (the risk pass) and `funding.ts` (funding settlement).
 */
export class FuturesEngine {
  private readonly state: EngineState;
  private readonly orders: FuturesOrders;
  private readonly account: FuturesAccount;

  constructor(
    book: PerpBook,
    marks: MarkBoard,
    now: () => number,
    balance: (account: string, asset: string) => bigint,
    feeRates?: FeeRates,
  ) {
    this.state = new EngineState({ marks, now, balance, feeRates });
    this.orders = new FuturesOrders(this.state, book);
    this.account = new FuturesAccount(this.state);
  }

  /** Open limit and trigger orders by id. */
  get open(): ReadonlyMap<number, FutOrderRow> {
    return this.state.open;
  }

  load(s: FuturesState): void {
    this.state.load(s);
  }

  /** Runs `fn` as one command in the paper writer's transaction; returns its result and what changed. */
  run<T>(tx: LedgerTx, fn: () => T): { value: T; writes: FuturesWrites; changes: Changes } {
    return this.state.run(tx, fn);
  }

  // ---- reads ----------------------------------------------------------------------

  isDual(accountId: number): boolean {
    return this.state.isDual(accountId);
  }

  settingOf(accountId: number, symbol: string): { leverage: number; marginMode: MarginMode } {
    return this.state.settingOf(accountId, symbol);
  }

  /** The account's maker and taker rates (ppm), from its VIP level. */
  feeRates(accountId: number): { makerPpm: number; takerPpm: number } {
    return this.state.feeRates(accountId);
  }

  positionsOf(accountId: number): StoredPosition[] {
    return this.state.positionsOf(accountId);
  }

  openOrdersOf(accountId: number): FutOrderRow[] {
    return this.state.openOrdersOf(accountId);
  }

  /** Lots held in open positions on `symbol`, every account and side. */
  openLots(symbol: string): bigint {
    let lots = 0n;
    for (const p of this.state.allPositions())
      if (p.position.symbol === symbol) lots += BigInt(Math.abs(p.position.lots));
    return lots;
  }

  hasActivity(symbol: string): boolean {
    return this.state.hasActivity(symbol);
  }

  wallet(accountId: number): bigint {
    return this.state.wallet(accountId);
  }

  /** Cross available margin after open-order reserves; what a new order or a transfer out may use. */
  available(accountId: number): bigint {
    return this.state.available(accountId);
  }

  /** An open isolated position, its mark (entry when none yet) and how far its margin may move each way. */
  marginBounds(
    ...args: Parameters<FuturesAccount["marginBounds"]>
  ): ReturnType<FuturesAccount["marginBounds"]> {
    return this.account.marginBounds(...args);
  }

  // ---- commands (inside `run`) -----------------------------------------------------------

  /** Answers the transfer's id (`FuturesAccount.transfer`). */
  transfer(...args: Parameters<FuturesAccount["transfer"]>): number {
    return this.account.transfer(...args);
  }

  /** Records a wallet transfer made by another module (spot and margin wallets); answers its id. */
  recordTransfer(t: Omit<TransferRow, "id" | "createdAt">): number {
    return this.state.saveTransfer(t);
  }

  /** Futures wallet to futures wallet (a master and its sub-account), within what the source can spare. */
  subTransfer(from: number, to: number, amount: bigint): void {
    this.account.subTransfer(from, to, amount);
  }

  setLeverage(accountId: number, symbol: string, leverage: number): void {
    this.account.setLeverage(accountId, symbol, leverage);
  }

  setMarginMode(accountId: number, symbol: string, marginMode: MarginMode): void {
    this.account.setMarginMode(accountId, symbol, marginMode);
  }

  setPositionMode(accountId: number, dual: boolean): void {
    this.account.setPositionMode(accountId, dual);
  }

  /** Binance's "Adjust Margin" (`FuturesAccount.adjustMargin`). */
  adjustMargin(...args: Parameters<FuturesAccount["adjustMargin"]>): StoredPosition {
    return this.account.adjustMargin(...args);
  }

  place(accountId: number, body: FuturesOrderBody): FutOrderRow {
    return this.orders.place(accountId, body);
  }

  cancel(accountId: number, orderId: number, reason: string | null = null): FutOrderRow | null {
    return this.state.cancel(accountId, orderId, reason);
  }

  closeAll(accountId: number, symbol?: string): FutOrderRow[] {
    return this.orders.closeAll(accountId, symbol);
  }

  /** Replaces the position's take-profit and/or stop-loss (`FuturesOrders.setTpsl`). */
  setTpsl(...args: Parameters<FuturesOrders["setTpsl"]>): FutOrderRow[] {
    return this.orders.setTpsl(...args);
  }

  /** After a mark or book move: triggers, resting limits, then the risk pass and liquidations. */
  onMarket(symbol: string): void {
    const c = perpContract(symbol);
    if (c === undefined) return;
    this.orders.match(c);
    riskPass(this.state);
  }

  /** Settles one funding interval for every open position of `symbol` at `rateE8`. */
  /** Settles one interval of `symbol` at `rateE8`, and records the rate as of `at`. */
  settleFunding(symbol: string, markTicks: number, rateE8: bigint, at: number = this.state.now()): void {
    this.state.saveFundingRate(symbol, rateE8, markTicks, at);
    settleFunding(this.state, symbol, markTicks, rateE8);
  }
}

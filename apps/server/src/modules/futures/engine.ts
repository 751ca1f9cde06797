import type { FuturesOrderBody } from "@meridian/contracts";
import { anyPerpContract, type MarginMode, type MirrorLevel, USDT } from "@meridian/domain";
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
    this.orders.reset();
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

  /** The account's positions, of every family, or only those margined in `asset`. */
  positionsOf(accountId: number, asset?: string): StoredPosition[] {
    return this.state.positionsOf(accountId, asset);
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

  /** A futures wallet's balance (USDT-M, or a coin's coin-M wallet). */
  wallet(accountId: number, asset: string = USDT): bigint {
    return this.state.wallet(accountId, asset);
  }

  /** Cross available margin of a wallet after open-order reserves; what a new order or a transfer out may use. */
  available(accountId: number, asset: string = USDT): bigint {
    return this.state.available(accountId, asset);
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

  /** Futures wallet to futures wallet of one asset (a master and its sub-account), within what the source can spare. */
  subTransfer(...args: Parameters<FuturesAccount["subTransfer"]>): void {
    this.account.subTransfer(...args);
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
    const c = anyPerpContract(symbol);
    if (c === undefined) return;
    this.orders.match(c);
    riskPass(this.state);
  }

  /** A live feed's printed trades of the pair `symbol` follows: its queued orders fill from them, then the risk pass. */
  exchangeTrades(symbol: string, trades: readonly MirrorLevel[], times: readonly number[]): void {
    const c = anyPerpContract(symbol);
    if (c === undefined) return;
    this.orders.exchangeTrades(c, trades, times);
    riskPass(this.state);
  }

  /**
   * Whether a live feed's printed trades may fill an order of `symbol` (`exchangeTrades`
   * has work); after a load its resting orders queue first, if the book is known.
   */
  waitsForPrints(symbol: string): boolean {
    const c = anyPerpContract(symbol);
    if (c === undefined) return false;
    this.orders.requeue(c);
    return this.orders.waitsForPrints(symbol);
  }

  /** A live feed mirrored a new book for the pair `symbol` follows (taken liquidity refreshes). */
  onBook(symbol: string): void {
    const c = anyPerpContract(symbol);
    if (c !== undefined) this.orders.onBook(c);
  }

  /** Settles one interval of `symbol` at `rateE8`, and records the rate as of `at`. */
  settleFunding(symbol: string, markTicks: number, rateE8: bigint, at: number = this.state.now()): void {
    this.state.saveFundingRate(symbol, rateE8, markTicks, at);
    settleFunding(this.state, symbol, markTicks, rateE8);
  }
}

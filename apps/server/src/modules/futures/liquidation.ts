import {
  COIN_MARGIN_ASSETS,
  decideLiquidations,
  type FuturesAccount,
  liquidateCross,
  liquidateIsolated,
  requireAnyPerp,
  unrealisedPnl,
} from "@meridian/domain";
import { filledValue } from "./orders.ts";
import type { FutOrderRow, FutTradeRow, StoredPosition } from "./repo.ts";
import type { EngineState } from "./state.ts";

/**
 * The risk pass and liquidations: the marks go into the `RiskBook`, whose pass names
 * the isolated positions and the cross accounts below maintenance; each is settled into
 * `system:insurance` (`liquidateIsolated`, `liquidateCross`), its open orders on the
 * contract are cancelled, and it is closed at the mark by a filled liquidation order.
 * Coin-M positions are decided exactly (`decideLiquidations`) per coin wallet, and settle
 * into that coin's insurance fund.
 */
export function riskPass(state: EngineState): void {
  const marks = state.marks.marks();
  for (const [symbol, ticks] of marks)
    if (requireAnyPerp(symbol).family === "usdt") state.risk.setMark(symbol, ticks);
  const result = state.risk.pass();
  const positionOf = state.positionByRiskId();
  for (const id of result.isolated) {
    const p = positionOf(id);
    const mark = p === undefined ? undefined : marks.get(p.position.symbol);
    if (p === undefined || mark === undefined) continue;
    const out = liquidateIsolated(p.position, mark);
    if (out.entry !== null) state.ledger().post(out.entry, p.position.accountId, null);
    closeLiquidated(state, [p], new Map([[p.position.symbol, mark]]));
  }
  for (const accountId of result.crossAccounts) {
    const cross = state
      .positionsOf(accountId)
      .filter((p) => p.position.marginMode === "cross" && p.position.lots !== 0);
    if (cross.length === 0) continue;
    const out = liquidateCross(
      accountId,
      state.wallet(accountId),
      cross.map((p) => p.position),
      marks,
    );
    if (out.entry !== null) state.ledger().post(out.entry, accountId, null);
    closeLiquidated(state, cross, marks);
  }
  coinPass(state, marks);
}

/** The coin-M wallets with open positions, checked exactly against the marks. */
function coinPass(state: EngineState, marks: ReadonlyMap<string, number>): void {
  const books = new Map<string, { accountId: number; asset: string; list: StoredPosition[] }>();
  for (const p of state.allPositions()) {
    const pos = p.position;
    if (pos.lots === 0) continue;
    const asset = requireAnyPerp(pos.symbol).marginAsset;
    if (!COIN_MARGIN_ASSETS.includes(asset)) continue;
    const key = `${pos.accountId}:${asset}`;
    let b = books.get(key);
    if (b === undefined) {
      b = { accountId: pos.accountId, asset, list: [] };
      books.set(key, b);
    }
    b.list.push(p);
  }
  if (books.size === 0) return;
  const accounts: FuturesAccount[] = [...books.values()].map((b) => ({
    accountId: b.accountId,
    asset: b.asset,
    wallet: state.wallet(b.accountId, b.asset),
    positions: b.list.map((p) => p.position),
  }));
  for (const d of decideLiquidations(accounts, marks)) {
    const list = books.get(`${d.accountId}:${d.asset}`)?.list ?? [];
    for (const pos of d.isolated) {
      const mark = marks.get(pos.symbol);
      const p = list.find(
        (x) => x.position.symbol === pos.symbol && x.position.positionSide === pos.positionSide,
      );
      if (mark === undefined || p === undefined) continue;
      const out = liquidateIsolated(pos, mark);
      if (out.entry !== null) state.ledger().post(out.entry, d.accountId, null);
      closeLiquidated(state, [p], new Map([[pos.symbol, mark]]));
    }
    if (!d.cross) continue;
    const cross = list.filter((p) => p.position.marginMode === "cross");
    const out = liquidateCross(
      d.accountId,
      state.wallet(d.accountId, d.asset),
      cross.map((p) => p.position),
      marks,
      d.asset,
    );
    if (out.entry !== null) state.ledger().post(out.entry, d.accountId, null);
    closeLiquidated(state, cross, marks);
  }
}

/** Closes liquidated positions at their fill prices: orders cancelled, a liquidation order and trade, the loss realised. */
function closeLiquidated(
  state: EngineState,
  list: readonly StoredPosition[],
  fills: ReadonlyMap<string, number>,
): void {
  for (const p of list) {
    const pos = p.position;
    const fill = fills.get(pos.symbol) ?? 0;
    const c = requireAnyPerp(pos.symbol);
    for (const o of state.openOrdersOf(pos.accountId))
      if (o.symbol === pos.symbol && (pos.marginMode === "cross" || o.positionSide === pos.positionSide))
        state.cancel(pos.accountId, o.id, "LIQUIDATION");
    const pnl = unrealisedPnl(c, pos, fill);
    const lost = pos.marginMode === "isolated" ? -pos.isolatedMargin : pnl;
    const id = state.nextOrderId();
    const order: FutOrderRow = {
      id,
      accountId: pos.accountId,
      symbol: pos.symbol,
      side: pos.lots > 0 ? "SELL" : "BUY",
      positionSide: pos.positionSide,
      type: "MARKET",
      priceTicks: null,
      stopTicks: null,
      qtyLots: Math.abs(pos.lots),
      filledLots: Math.abs(pos.lots),
      filledNotional: filledValue(c, Math.abs(pos.lots), fill),
      reduceOnly: true,
      closePosition: true,
      clientOrderId: `#${id}`,
      status: "FILLED",
      reason: "LIQUIDATION",
      createdAt: state.now(),
      updatedAt: state.now(),
    };
    state.saveOrder(order);
    const trade: FutTradeRow = {
      id: state.nextTradeId(),
      orderId: order.id,
      accountId: pos.accountId,
      symbol: pos.symbol,
      side: order.side,
      positionSide: pos.positionSide,
      priceTicks: fill,
      qtyLots: Math.abs(pos.lots),
      realisedPnl: lost,
      fee: 0n,
      isMaker: false,
      liquidation: true,
      createdAt: state.now(),
    };
    state.saveTrade(trade);
    state.savePosition({
      position: { ...pos, lots: 0, cost: 0n, isolatedMargin: 0n },
      realisedPnl: p.realisedPnl + lost,
    });
    state.syncWallet(pos.accountId);
  }
}

import { liquidateCross, liquidateIsolated, notionalAt, requirePerp } from "@meridian/domain";
import type { FutOrderRow, FutTradeRow, StoredPosition } from "./repo.ts";
import type { EngineState } from "./state.ts";

/**
 * The risk pass and liquidations: the marks go into the `RiskBook`, whose pass names
 * the isolated positions and the cross accounts below maintenance; each is settled into
 * `system:insurance` (`liquidateIsolated`, `liquidateCross`), its open orders on the
 * contract are cancelled, and it is closed at the mark by a filled liquidation order.
 */
export function riskPass(state: EngineState): void {
  const marks = state.marks.marks();
  for (const [symbol, ticks] of marks) state.risk.setMark(symbol, ticks);
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
    const c = requirePerp(pos.symbol);
    for (const o of state.openOrdersOf(pos.accountId))
      if (o.symbol === pos.symbol && (pos.marginMode === "cross" || o.positionSide === pos.positionSide))
        state.cancel(pos.accountId, o.id, "LIQUIDATION");
    const n = notionalAt(c, pos.lots, fill);
    const pnl = pos.lots > 0 ? n - pos.cost : pos.cost - n;
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
      filledNotional: n,
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

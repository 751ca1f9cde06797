import type {
  ClosedPositionRecord,
  FundingRecord,
  FuturesAccount,
  FuturesMark,
  FuturesOrder,
  FuturesPosition,
  FuturesTrade,
  PositionMarginInfo,
} from "@meridian/contracts";
import {
  type ClosedPosition,
  crossSummary,
  entryPrice,
  entryTicks,
  formatScaled,
  fromMinor,
  initialMargin,
  isolatedStatus,
  liquidationPrice,
  type Marks,
  marginRatioPpm,
  minBig,
  notionalAt,
  PERP_CONTRACTS,
  type PerpContract,
  type PerpPosition,
  positionMaintenance,
  requirePerp,
  roePpm,
  ticksToPrice,
  unrealisedPnl,
} from "@meridian/domain";
import type { FundingRow, FutOrderRow, FutTradeRow, StoredPosition } from "./repo.ts";

export const usdtText = (minor: bigint): string => fromMinor("USDT", minor);
/** ppm as a percent with two decimals ("20.00"), truncated toward zero. */
export const percentText = (ppm: bigint): string => formatScaled(ppm / 100n, 2);
const priceText = (c: PerpContract, ticks: number): string => ticksToPrice(c.instrument, ticks);

function qtyText(c: PerpContract, lots: number): string {
  return formatScaled(BigInt(lots) * c.instrument.lotUnits, c.instrument.qtyDecimals);
}

export function presentOrder(o: FutOrderRow): FuturesOrder {
  const c = requirePerp(o.symbol);
  const avg =
    o.filledLots === 0
      ? "0"
      : formatScaled(
          (o.filledNotional * c.instrument.tickUnits) / (BigInt(o.filledLots) * c.minorPerTickLot),
          c.instrument.priceDecimals,
        );
  return {
    id: o.id,
    symbol: o.symbol,
    side: o.side,
    positionSide: o.positionSide,
    type: o.type,
    price: o.priceTicks === null ? null : priceText(c, o.priceTicks),
    stopPrice: o.stopTicks === null ? null : priceText(c, o.stopTicks),
    quantity: qtyText(c, o.qtyLots),
    executedQty: qtyText(c, o.filledLots),
    avgPrice: avg,
    reduceOnly: o.reduceOnly,
    closePosition: o.closePosition,
    clientOrderId: o.clientOrderId,
    status: o.status,
    reason: o.reason,
    time: o.createdAt,
    updateTime: o.updatedAt,
  };
}

export function presentTrade(t: FutTradeRow): FuturesTrade {
  const c = requirePerp(t.symbol);
  return {
    id: t.id,
    orderId: t.orderId,
    symbol: t.symbol,
    side: t.side,
    positionSide: t.positionSide,
    price: priceText(c, t.priceTicks),
    quantity: qtyText(c, t.qtyLots),
    realisedPnl: usdtText(t.realisedPnl),
    fee: usdtText(t.fee),
    maker: t.isMaker,
    liquidation: t.liquidation,
    time: t.createdAt,
  };
}

export function presentFunding(f: FundingRow): FundingRecord {
  const c = requirePerp(f.symbol);
  return {
    id: f.id,
    symbol: f.symbol,
    positionSide: f.positionSide,
    rate: formatScaled(f.rateE8, 8),
    markPrice: priceText(c, f.markTicks),
    amount: usdtText(f.amount),
    time: f.createdAt,
  };
}

export interface AccountView {
  wallet: bigint;
  positions: readonly StoredPosition[];
  marks: Marks;
  available: bigint;
  dual: boolean;
}

export function presentAccount(v: AccountView): FuturesAccount {
  const open = v.positions.map((p) => p.position).filter((p) => p.lots !== 0);
  const s = crossSummary(v.wallet, open, v.marks);
  let isolated = 0n;
  let isoUpnl = 0n;
  for (const p of open) {
    if (p.marginMode !== "isolated") continue;
    isolated += p.isolatedMargin;
    const mark = v.marks.get(p.symbol);
    if (mark !== undefined) isoUpnl += unrealisedPnl(requirePerp(p.symbol), p, mark);
  }
  const spare = minBig(v.available, v.wallet);
  return {
    wallet: usdtText(v.wallet),
    unrealisedPnl: usdtText(s.unrealised + isoUpnl),
    marginBalance: usdtText(s.marginBalance),
    available: usdtText(v.available > 0n ? v.available : 0n),
    maxTransferOut: usdtText(spare > 0n ? spare : 0n),
    maintenanceMargin: usdtText(s.maintenance),
    marginRatio: s.marginRatioPpm === null ? null : percentText(s.marginRatioPpm),
    isolatedMargin: usdtText(isolated),
    dualSidePosition: v.dual,
  };
}

function isolatedLiquidation(c: PerpContract, p: PerpPosition, markTicks: number): number | null {
  const legs = [{ side: (p.lots > 0 ? 1 : -1) as 1 | -1, lots: Math.abs(p.lots), cost: p.cost }];
  return liquidationPrice({ contract: c, legs, walletBalance: p.isolatedMargin, markTicks });
}

/** The adjust-margin preview of an isolated position; `after` is the position once changed (when valid). */
export function presentMarginInfo(
  p: PerpPosition,
  mark: number,
  maxAdd: bigint,
  maxRemove: bigint,
  after: PerpPosition | null,
): PositionMarginInfo {
  const c = requirePerp(p.symbol);
  const liq = (x: PerpPosition) => {
    const t = isolatedLiquidation(c, x, mark);
    return t === null ? null : priceText(c, t);
  };
  return {
    symbol: p.symbol,
    positionSide: p.positionSide,
    margin: usdtText(p.isolatedMargin),
    maxAdd: usdtText(maxAdd),
    maxRemove: usdtText(maxRemove),
    liquidationPrice: liq(p),
    after: after === null ? null : { margin: usdtText(after.isolatedMargin), liquidationPrice: liq(after) },
  };
}

export function presentPosition(
  sp: StoredPosition,
  wallet: bigint,
  all: readonly StoredPosition[],
  marks: Marks,
  tpsl: { takeProfit: string | null; stopLoss: string | null },
): FuturesPosition {
  const p = sp.position;
  const c = requirePerp(p.symbol);
  const mark = marks.get(p.symbol) ?? 0;
  const markOrEntry = mark > 0 ? mark : Math.max(1, entryTicks(c, p));
  const upnl = unrealisedPnl(c, p, markOrEntry);
  const maintenance = positionMaintenance(c, p, markOrEntry);
  let ratio: bigint | null;
  let liq: number | null;
  const legs = [{ side: (p.lots > 0 ? 1 : -1) as 1 | -1, lots: Math.abs(p.lots), cost: p.cost }];
  if (p.marginMode === "isolated") {
    const st = isolatedStatus(c, p, markOrEntry);
    ratio = marginRatioPpm(st.maintenance, st.marginBalance);
    liq = isolatedLiquidation(c, p, markOrEntry);
  } else {
    const others = all
      .map((x) => x.position)
      .filter(
        (x) =>
          x.marginMode === "cross" &&
          x.lots !== 0 &&
          !(x.symbol === p.symbol && x.positionSide === p.positionSide),
      );
    const s = crossSummary(wallet, [...others, p], marks);
    const o = crossSummary(wallet, others, marks);
    ratio = s.marginRatioPpm;
    liq = liquidationPrice({
      contract: c,
      legs,
      walletBalance: wallet,
      otherMaintenance: o.maintenance,
      otherUnrealised: o.unrealised,
      markTicks: markOrEntry,
    });
  }
  const margin =
    p.marginMode === "isolated"
      ? p.isolatedMargin
      : initialMargin(notionalAt(c, p.lots, markOrEntry), p.leverage);
  const qty = formatScaled(BigInt(p.lots) * c.instrument.lotUnits, c.instrument.qtyDecimals);
  return {
    symbol: p.symbol,
    positionSide: p.positionSide,
    marginMode: p.marginMode,
    leverage: p.leverage,
    quantity: qty,
    entryPrice: entryPrice(c, p),
    markPrice: priceText(c, markOrEntry),
    liquidationPrice: liq === null ? null : priceText(c, liq),
    notional: usdtText(notionalAt(c, p.lots, markOrEntry)),
    margin: usdtText(margin),
    maintenanceMargin: usdtText(maintenance),
    marginRatio: ratio === null ? null : percentText(ratio),
    unrealisedPnl: usdtText(upnl),
    realisedPnl: usdtText(sp.realisedPnl),
    roe: percentText(roePpm(c, p, markOrEntry)),
    takeProfit: tpsl.takeProfit,
    stopLoss: tpsl.stopLoss,
  };
}

export function presentMarks(
  markOf: (c: PerpContract) => number | undefined,
  indexOf: (c: PerpContract) => number,
  rateOf: (c: PerpContract) => bigint,
  nextFunding: number,
): FuturesMark[] {
  return PERP_CONTRACTS.map((c) => {
    const m = markOf(c) ?? 0;
    return {
      symbol: c.symbol,
      markPrice: m > 0 ? priceText(c, m) : "0",
      indexPrice: indexOf(c) > 0 ? priceText(c, indexOf(c)) : "0",
      fundingRate: formatScaled(rateOf(c), 8),
      nextFundingTime: nextFunding,
      tickSize: c.instrument.tickSize,
      stepSize: c.instrument.lotSize,
      minNotional: c.instrument.minNotional,
      maxLeverage: c.maxLeverage,
    };
  });
}

function avgPrice(c: PerpContract, ticksLots: bigint, lots: number): string {
  if (lots === 0) return "0";
  return formatScaled((ticksLots * c.instrument.tickUnits) / BigInt(lots), c.instrument.priceDecimals);
}

export function presentClosedPosition(p: ClosedPosition): ClosedPositionRecord {
  const c = requirePerp(p.symbol);
  return {
    symbol: p.symbol,
    positionSide: p.positionSide,
    direction: p.direction,
    openTime: p.openTime,
    closeTime: p.closeTime,
    maxQty: qtyText(c, p.maxLots),
    entryPrice: avgPrice(c, p.openTicksLots, p.openLots),
    closePrice: avgPrice(c, p.closeTicksLots, p.closeLots),
    realisedPnl: usdtText(p.realisedPnl),
    fee: usdtText(p.fees),
    netPnl: usdtText(p.realisedPnl - p.fees),
    liquidated: p.liquidated,
  };
}

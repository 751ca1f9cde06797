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
  ALL_PERP_CONTRACTS,
  type AnyPerpContract,
  type ClosedPosition,
  crossSummary,
  entryPrice,
  entryTicks,
  type Fraction,
  formatScaled,
  fromMinor,
  initialMargin,
  isolatedStatus,
  liquidationPrice,
  type Marks,
  marginRatioPpm,
  minBig,
  notionalAt,
  type PerpFamily,
  type PerpPosition,
  positionMaintenance,
  requireAnyPerp,
  roePpm,
  ticksToPrice,
  unrealisedPnl,
} from "@meridian/domain";
import { callbackText } from "./plans.ts";
import type { FundingRow, FutOrderRow, FutTradeRow, StoredPosition } from "./repo.ts";

export const usdtText = (minor: bigint): string => fromMinor("USDT", minor);
/** An amount of a contract's margin asset (USDT, or the coin of a coin-M contract). */
const moneyText = (c: AnyPerpContract, minor: bigint): string => fromMinor(c.marginAsset, minor);
/** ppm as a percent with two decimals ("20.00"), truncated toward zero. */
export const percentText = (ppm: bigint): string => formatScaled(ppm / 100n, 2);
const priceText = (c: AnyPerpContract, ticks: number): string => ticksToPrice(c.instrument, ticks);

function qtyText(c: AnyPerpContract, lots: number): string {
  return formatScaled(BigInt(lots) * c.instrument.lotUnits, c.instrument.qtyDecimals);
}

export function presentOrder(o: FutOrderRow): FuturesOrder {
  const c = requireAnyPerp(o.symbol);
  // USDT-M: notional / size; coin-M: the harmonic mean, contracts x value / value in coin.
  const avg =
    o.filledLots === 0 || o.filledNotional === 0n
      ? "0"
      : c.family === "coin"
        ? formatScaled(
            (BigInt(o.filledLots) * c.valuePerContract * c.costScale * c.instrument.tickUnits) /
              o.filledNotional,
            c.instrument.priceDecimals,
          )
        : formatScaled(
            (o.filledNotional * c.instrument.tickUnits) / (BigInt(o.filledLots) * c.minorPerTickLot),
            c.instrument.priceDecimals,
          );
  return {
    id: o.id,
    symbol: o.symbol,
    family: c.family,
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
    ...(o.type === "LIMIT" ? { timeInForce: o.timeInForce ?? "GTC" } : {}),
    ...(o.plan?.callbackPpm == null ? {} : { callbackRate: callbackText(o.plan.callbackPpm) }),
    ...(o.plan?.triggeredAt == null ? {} : { triggerTime: o.plan.triggeredAt }),
    clientOrderId: o.clientOrderId,
    status: o.status,
    reason: o.reason,
    time: o.createdAt,
    updateTime: o.updatedAt,
  };
}

export function presentTrade(t: FutTradeRow): FuturesTrade {
  const c = requireAnyPerp(t.symbol);
  return {
    id: t.id,
    orderId: t.orderId,
    symbol: t.symbol,
    family: c.family,
    marginCoin: c.marginAsset,
    side: t.side,
    positionSide: t.positionSide,
    price: priceText(c, t.priceTicks),
    quantity: qtyText(c, t.qtyLots),
    realisedPnl: moneyText(c, t.realisedPnl),
    fee: moneyText(c, t.fee),
    maker: t.isMaker,
    liquidation: t.liquidation,
    time: t.createdAt,
  };
}

export function presentFunding(f: FundingRow): FundingRecord {
  const c = requireAnyPerp(f.symbol);
  return {
    id: f.id,
    symbol: f.symbol,
    family: c.family,
    marginCoin: c.marginAsset,
    positionSide: f.positionSide,
    rate: formatScaled(f.rateE8, 8),
    markPrice: priceText(c, f.markTicks),
    amount: moneyText(c, f.amount),
    time: f.createdAt,
  };
}

export interface AccountView {
  /** The wallet's asset: USDT, or a coin; `positions` are those margined in it. */
  asset: string;
  wallet: bigint;
  positions: readonly StoredPosition[];
  marks: Marks;
  available: bigint;
  dual: boolean;
}

export function presentAccount(v: AccountView): FuturesAccount {
  const open = v.positions
    .map((p) => p.position)
    .filter((p) => p.lots !== 0 && requireAnyPerp(p.symbol).marginAsset === v.asset);
  const text = (minor: bigint) => fromMinor(v.asset, minor);
  const s = crossSummary(v.wallet, open, v.marks);
  let isolated = 0n;
  let isoUpnl = 0n;
  for (const p of open) {
    if (p.marginMode !== "isolated") continue;
    isolated += p.isolatedMargin;
    const mark = v.marks.get(p.symbol);
    if (mark !== undefined) isoUpnl += unrealisedPnl(requireAnyPerp(p.symbol), p, mark);
  }
  const spare = minBig(v.available, v.wallet);
  return {
    family: v.asset === "USDT" ? "usdt" : "coin",
    marginCoin: v.asset,
    wallet: text(v.wallet),
    unrealisedPnl: text(s.unrealised + isoUpnl),
    marginBalance: text(s.marginBalance),
    available: text(v.available > 0n ? v.available : 0n),
    maxTransferOut: text(spare > 0n ? spare : 0n),
    maintenanceMargin: text(s.maintenance),
    marginRatio: s.marginRatioPpm === null ? null : percentText(s.marginRatioPpm),
    isolatedMargin: text(isolated),
    dualSidePosition: v.dual,
  };
}

function isolatedLiquidation(c: AnyPerpContract, p: PerpPosition, markTicks: number): number | null {
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
  const c = requireAnyPerp(p.symbol);
  const liq = (x: PerpPosition) => {
    const t = isolatedLiquidation(c, x, mark);
    return t === null ? null : priceText(c, t);
  };
  return {
    symbol: p.symbol,
    positionSide: p.positionSide,
    margin: moneyText(c, p.isolatedMargin),
    maxAdd: moneyText(c, maxAdd),
    maxRemove: moneyText(c, maxRemove),
    liquidationPrice: liq(p),
    after:
      after === null ? null : { margin: moneyText(c, after.isolatedMargin), liquidationPrice: liq(after) },
  };
}

/** `wallet` is the balance of the position's margin asset, `all` the account's positions (any family). */
export function presentPosition(
  sp: StoredPosition,
  wallet: bigint,
  all: readonly StoredPosition[],
  marks: Marks,
  tpsl: { takeProfit: string | null; stopLoss: string | null },
): FuturesPosition {
  const p = sp.position;
  const c = requireAnyPerp(p.symbol);
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
          requireAnyPerp(x.symbol).marginAsset === c.marginAsset &&
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
    family: c.family,
    marginCoin: c.marginAsset,
    positionSide: p.positionSide,
    marginMode: p.marginMode,
    leverage: p.leverage,
    quantity: qty,
    entryPrice: entryPrice(c, p),
    markPrice: priceText(c, markOrEntry),
    liquidationPrice: liq === null ? null : priceText(c, liq),
    notional: moneyText(c, notionalAt(c, p.lots, markOrEntry)),
    margin: moneyText(c, margin),
    maintenanceMargin: moneyText(c, maintenance),
    marginRatio: ratio === null ? null : percentText(ratio),
    unrealisedPnl: moneyText(c, upnl),
    realisedPnl: moneyText(c, sp.realisedPnl),
    roe: percentText(roePpm(c, p, markOrEntry)),
    takeProfit: tpsl.takeProfit,
    stopLoss: tpsl.stopLoss,
  };
}

export function presentMarks(
  markOf: (c: AnyPerpContract) => number | undefined,
  indexOf: (c: AnyPerpContract) => number,
  rateOf: (c: AnyPerpContract) => bigint,
  nextFunding: number,
  family?: PerpFamily,
): FuturesMark[] {
  const list =
    family === undefined ? ALL_PERP_CONTRACTS : ALL_PERP_CONTRACTS.filter((c) => c.family === family);
  return list.map((c) => {
    const m = markOf(c) ?? 0;
    return {
      symbol: c.symbol,
      family: c.family,
      marginCoin: c.marginAsset,
      contractValue: c.family === "coin" ? c.contractValue : null,
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

/** Average fill price: lots-weighted (USDT-M), or the harmonic mean lots / sum(lots / ticks) (coin-M). */
function avgPrice(c: AnyPerpContract, ticksLots: bigint, perTick: Fraction, lots: number): string {
  if (lots === 0) return "0";
  if (c.family === "coin" && perTick.num > 0n)
    return formatScaled(
      (BigInt(lots) * perTick.den * c.instrument.tickUnits) / perTick.num,
      c.instrument.priceDecimals,
    );
  return formatScaled((ticksLots * c.instrument.tickUnits) / BigInt(lots), c.instrument.priceDecimals);
}

export function presentClosedPosition(p: ClosedPosition): ClosedPositionRecord {
  const c = requireAnyPerp(p.symbol);
  return {
    symbol: p.symbol,
    family: c.family,
    marginCoin: c.marginAsset,
    positionSide: p.positionSide,
    direction: p.direction,
    openTime: p.openTime,
    closeTime: p.closeTime,
    maxQty: qtyText(c, p.maxLots),
    entryPrice: avgPrice(c, p.openTicksLots, p.openPerTick, p.openLots),
    closePrice: avgPrice(c, p.closeTicksLots, p.closePerTick, p.closeLots),
    realisedPnl: moneyText(c, p.realisedPnl),
    fee: moneyText(c, p.fees),
    netPnl: moneyText(c, p.realisedPnl - p.fees),
    liquidated: p.liquidated,
  };
}

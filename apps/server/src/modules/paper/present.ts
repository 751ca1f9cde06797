import type { OrderSideValue, PaperBalance, PaperFeeTier, PaperOrder, PaperTrade } from "@meridian/contracts";
import {
  fromMinor,
  type InstrumentSpec,
  lotsToQty,
  pairUnits,
  ppmToPercent,
  ticksToPrice,
  type VipTier,
} from "@meridian/domain";
import type { OrderRow, TradeRow } from "./rows.ts";
import type { PaperVenue } from "./venue.ts";

const sideOf = (side: 0 | 1): OrderSideValue => (side === 0 ? "BUY" : "SELL");

function priceOf(spec: InstrumentSpec | undefined, ticks: number | null): string | null {
  return ticks === null || spec === undefined ? null : ticksToPrice(spec, ticks);
}

export function presentOrder(venue: PaperVenue, o: OrderRow): PaperOrder {
  const spec = venue.spec(o.symbol);
  const quoteAsset = (spec === undefined ? null : pairUnits(spec))?.quote ?? "USDT";
  const order: PaperOrder = {
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    symbol: o.symbol,
    side: sideOf(o.side),
    type: o.type,
    timeInForce: o.tif,
    price: priceOf(spec, o.priceTicks),
    stopPrice: priceOf(spec, o.stopTicks),
    origQty: spec === undefined ? String(o.qtyLots) : lotsToQty(spec, o.qtyLots),
    quoteQty: o.quoteQty,
    executedQty: spec === undefined ? String(o.filledLots) : lotsToQty(spec, o.filledLots),
    cummulativeQuoteQty: fromMinor(quoteAsset, o.takerQuote + o.makerQuote),
    fee: fromMinor(quoteAsset, o.fees),
    feeAsset: quoteAsset,
    status: o.status,
    triggered: o.triggered,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
  };
  // Optional fields are added (not spread in), so a plain order allocates no extra objects.
  if (o.tpTriggerTicks !== null)
    order.takeProfit = {
      triggerPrice: priceOf(spec, o.tpTriggerTicks) ?? "",
      price: priceOf(spec, o.tpPriceTicks),
    };
  if (o.slTriggerTicks !== null)
    order.stopLoss = {
      triggerPrice: priceOf(spec, o.slTriggerTicks) ?? "",
      price: priceOf(spec, o.slPriceTicks),
    };
  if (o.parentId !== null) {
    order.parentOrderId = o.parentId;
    order.tpslRole = o.tpslRole === "TP" ? "TAKE_PROFIT" : "STOP_LOSS";
    order.ocoOrderId = o.ocoId;
  }
  return order;
}

export function presentTrade(venue: PaperVenue, t: TradeRow): PaperTrade {
  const spec = venue.spec(t.symbol);
  const quoteAsset = spec?.quote ?? "USDT";
  return {
    tradeId: t.id,
    orderId: t.orderId,
    symbol: t.symbol,
    side: sideOf(t.side),
    price: spec === undefined ? String(t.priceTicks) : ticksToPrice(spec, t.priceTicks),
    qty: spec === undefined ? String(t.qtyLots) : lotsToQty(spec, t.qtyLots),
    quoteQty: fromMinor(quoteAsset, t.quote),
    fee: fromMinor(quoteAsset, t.fee),
    feeAsset: quoteAsset,
    isMaker: t.isMaker,
    time: t.createdAt,
  };
}

/** Every asset with a balance, available and held, sorted by asset code. */
export function presentBalances(
  available: ReadonlyMap<string, bigint>,
  held: ReadonlyMap<string, bigint>,
): PaperBalance[] {
  const assets = [...new Set([...available.keys(), ...held.keys()])].sort();
  return assets.map((asset) => {
    const a = available.get(asset) ?? 0n;
    const h = held.get(asset) ?? 0n;
    return {
      asset,
      available: fromMinor(asset, a),
      held: fromMinor(asset, h),
      total: fromMinor(asset, a + h),
    };
  });
}

export function presentTier(t: VipTier): PaperFeeTier {
  return {
    level: t.level,
    makerRate: ppmToPercent(t.makerPpm),
    takerRate: ppmToPercent(t.takerPpm),
    makerPpm: t.makerPpm,
    takerPpm: t.takerPpm,
    minVolume30d: t.minVolume30d,
    minBalance: t.minBalance,
  };
}

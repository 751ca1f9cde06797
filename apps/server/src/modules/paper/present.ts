import type { OrderSideValue, PaperBalance, PaperFeeTier, PaperOrder, PaperTrade } from "@meridian/contracts";
import { fromMinor, lotsToQty, pairUnits, ppmToPercent, ticksToPrice, type VipTier } from "@meridian/domain";
import type { OrderRow, TradeRow } from "./engine.ts";
import type { PaperVenue } from "./venue.ts";

const sideOf = (side: 0 | 1): OrderSideValue => (side === 0 ? "BUY" : "SELL");

export function presentOrder(venue: PaperVenue, o: OrderRow): PaperOrder {
  const spec = venue.spec(o.symbol);
  const units = spec === undefined ? null : pairUnits(spec);
  const price = (ticks: number | null) =>
    ticks === null || spec === undefined ? null : ticksToPrice(spec, ticks);
  const qty = (lots: number) => (spec === undefined ? String(lots) : lotsToQty(spec, lots));
  const quoteAsset = units?.quote ?? "USDT";
  return {
    orderId: o.id,
    clientOrderId: o.clientOrderId,
    symbol: o.symbol,
    side: sideOf(o.side),
    type: o.type,
    timeInForce: o.tif,
    price: price(o.priceTicks),
    stopPrice: price(o.stopTicks),
    origQty: qty(o.qtyLots),
    quoteQty: o.quoteQty,
    executedQty: qty(o.filledLots),
    cummulativeQuoteQty: fromMinor(quoteAsset, o.takerQuote + o.makerQuote),
    fee: fromMinor(quoteAsset, o.fees),
    feeAsset: quoteAsset,
    status: o.status,
    triggered: o.triggered,
    createdAt: o.createdAt,
    updatedAt: o.updatedAt,
    ...(o.tpTriggerTicks === null
      ? {}
      : { takeProfit: { triggerPrice: price(o.tpTriggerTicks) ?? "", price: price(o.tpPriceTicks) } }),
    ...(o.slTriggerTicks === null
      ? {}
      : { stopLoss: { triggerPrice: price(o.slTriggerTicks) ?? "", price: price(o.slPriceTicks) } }),
    ...(o.parentId === null
      ? {}
      : {
          parentOrderId: o.parentId,
          tpslRole: o.tpslRole === "TP" ? ("TAKE_PROFIT" as const) : ("STOP_LOSS" as const),
          ocoOrderId: o.ocoId,
        }),
  };
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

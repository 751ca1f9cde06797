// Planning an order before it touches the ledger: prices and quantity in ticks and lots,
// the price its hold is computed at, and its attached TP/SL, each refused with the
// book's codes. Pure over the instrument, the book and the last price.
import { PaperCode, type PlaceOrderBody, type TpSlLegBody } from "@meridian/contracts";
import {
  DomainCode,
  type DomainError,
  domainError,
  type FeeRates,
  firesAt,
  firesOnRise,
  type InstrumentSpec,
  legTriggerValid,
  type MarketBuyPlan,
  type MarketBuyWant,
  meetsMinNotional,
  type PairUnits,
  planMarketBuy,
  priceToTicks,
  qtyToLots,
  Side,
  stopMarketCapTicks,
  toMinor,
} from "@meridian/domain";
import { AppError } from "../../platform/errors.ts";
import { type OrderRow, rejected } from "./rows.ts";
import type { VenueBook } from "./venue.ts";

/** What an order will rest or take at, and hold for. */
export interface OrderPlan {
  lots: number;
  holdTicks: number;
  priceTicks: number | null;
  stopTicks: number | null;
  /** What it holds when that is not `holdFor` its lots at `holdTicks` (a market buy by quote total). */
  held?: bigint;
}

/**
 * Prices, quantity and the price the hold is computed at; throws the rejection.
 * `lastTicks`: the last price (0: none yet); `accountId`: whose order (a market buy fills
 * past its own asks, self-trade prevention expiring them).
 */
export function planOrder(
  spec: InstrumentSpec,
  units: PairUnits,
  vb: VenueBook,
  side: 0 | 1,
  body: PlaceOrderBody,
  rates: FeeRates,
  lastTicks: number,
  accountId: number,
): OrderPlan {
  const need = <T>(r: { ok: true; value: T } | { ok: false; error: DomainError }): T => {
    if (!r.ok) throw rejected(r.error);
    return r.value;
  };
  const notional = (ticks: number, lots: number) => {
    if (!meetsMinNotional(spec, ticks, lots))
      throw rejected(
        domainError(DomainCode.NOTIONAL_TOO_SMALL, "quantity", { minNotional: spec.minNotional }),
      );
  };
  const priceTicks = body.price === undefined ? null : need(priceToTicks(spec, body.price, "price"));
  const stopTicks =
    body.stopPrice === undefined ? null : need(priceToTicks(spec, body.stopPrice, "stopPrice"));
  if (body.type === "MARKET" && side === Side.Buy) {
    let want: MarketBuyWant;
    if (body.quoteQty !== undefined) {
      const quote = toMinor(units.quote, body.quoteQty);
      if (quote === null || quote <= 0n) throw rejected(domainError(DomainCode.INVALID_DECIMAL, "quoteQty"));
      want = { quote, rates };
    } else want = { lots: need(qtyToLots(spec, body.quantity ?? "", "quantity")) };
    const p = planMarketBuyOn(spec, units, vb, want, accountId);
    if (p === null) throw new AppError(PaperCode.NO_LIQUIDITY, "No liquidity to buy from", { status: 200 });
    if (p.lots < spec.minQtyLots)
      throw rejected(
        domainError(DomainCode.NOTIONAL_TOO_SMALL, "quoteQty", { minNotional: spec.minNotional }),
      );
    notional(p.capTicks, p.lots);
    return {
      lots: p.lots,
      holdTicks: p.capTicks,
      priceTicks: p.capTicks,
      stopTicks: null,
      ...(p.held === undefined ? {} : { held: p.held }),
    };
  }
  const lots = need(qtyToLots(spec, body.quantity ?? "", "quantity"));
  if (body.type === "MARKET") {
    const bid = vb.book.top().bid;
    if (bid === 0) throw new AppError(PaperCode.NO_LIQUIDITY, "No liquidity to sell to", { status: 200 });
    notional(bid, lots);
    return { lots, holdTicks: 0, priceTicks: null, stopTicks: null };
  }
  if (stopTicks !== null) {
    if (firesAt(firesOnRise(side === Side.Buy, false), stopTicks, lastTicks)) {
      throw rejected(domainError(DomainCode.STOP_WOULD_TRIGGER, "stopPrice"));
    }
    if (body.type === "STOP_MARKET") {
      notional(stopTicks, lots);
      if (side === Side.Sell) return { lots, holdTicks: 0, priceTicks: null, stopTicks };
      const capTicks = stopMarketCap(spec, stopTicks);
      return { lots, holdTicks: capTicks, priceTicks: capTicks, stopTicks };
    }
  }
  const limit = priceTicks ?? 0;
  notional(limit, lots);
  if (body.type === "LIMIT_MAKER") {
    const top = vb.book.top();
    const opposite = side === Side.Buy ? top.ask : top.bid;
    if (opposite !== 0 && (side === Side.Buy ? opposite <= limit : opposite >= limit)) {
      throw rejected(domainError(DomainCode.POST_ONLY_WOULD_TAKE, "price"));
    }
  }
  return { lots, holdTicks: limit, priceTicks: limit, stopTicks };
}

/**
 * The attached TP/SL in ticks, checked: trigger (and limit) prices in range, a buy's
 * take-profit above its price and stop-loss below (a sell's the reverse; a market
 * order is measured against the last price), and each leg worth the minimum notional
 * at its trigger. Refusals are the book's TPSL_INVALID naming the field.
 */
export function planTpSl(
  spec: InstrumentSpec,
  side: 0 | 1,
  body: PlaceOrderBody,
  lots: number,
  limitTicks: number | null,
  lastTicks: number,
): Partial<OrderRow> {
  if (body.takeProfit === undefined && body.stopLoss === undefined) return {};
  if (body.type !== "LIMIT" && body.type !== "LIMIT_MAKER" && body.type !== "MARKET")
    throw rejected(
      domainError(DomainCode.TPSL_INVALID, body.takeProfit === undefined ? "stopLoss" : "takeProfit"),
    );
  const ref = limitTicks ?? lastTicks;
  const leg = (l: TpSlLegBody | undefined, field: "takeProfit" | "stopLoss") => {
    if (l === undefined) return { trigger: null, price: null };
    const t = priceToTicks(spec, l.triggerPrice, `${field}.triggerPrice`);
    if (!t.ok) throw rejected(t.error);
    const p = l.price === undefined ? null : priceToTicks(spec, l.price, `${field}.price`);
    if (p !== null && !p.ok) throw rejected(p.error);
    if (!legTriggerValid(side === Side.Buy, field === "takeProfit", t.value, ref))
      throw rejected(domainError(DomainCode.TPSL_INVALID, `${field}.triggerPrice`));
    if (!meetsMinNotional(spec, t.value, lots))
      throw rejected(
        domainError(DomainCode.NOTIONAL_TOO_SMALL, `${field}.triggerPrice`, {
          minNotional: spec.minNotional,
        }),
      );
    return { trigger: t.value, price: p === null ? null : p.value };
  };
  const tp = leg(body.takeProfit, "takeProfit");
  const sl = leg(body.stopLoss, "stopLoss");
  return {
    tpTriggerTicks: tp.trigger,
    tpPriceTicks: tp.price,
    slTriggerTicks: sl.trigger,
    slPriceTicks: sl.price,
  };
}

/** Ask levels a market buy plans on first; it reads up to MARKET_BUY_DEPTH only when it gets past them. */
const MARKET_BUY_NEAR = 16;
const MARKET_BUY_DEPTH = 1000;

/**
 * `planMarketBuy` over the first MARKET_BUY_DEPTH ask levels, reading only the nearest
 * MARKET_BUY_NEAR unless the plan reaches the last of them: the plan walks levels best
 * first and stops once filled, so a plan that stops earlier is the same on the deeper
 * ladder (copying 1,000 levels for every market buy was about 0.7 KB per order). The
 * levels are those the buyer fills against: less its own resting asks, which self-trade
 * prevention expires as the buy reaches them (`Stp.ExpireMaker`, `SpotState.enter`).
 */
export function planMarketBuyOn(
  spec: InstrumentSpec,
  units: PairUnits,
  vb: VenueBook,
  want: MarketBuyWant,
  accountId: number,
): MarketBuyPlan | null {
  const near = vb.book.depth(Side.Sell, MARKET_BUY_NEAR, accountId);
  const plan = planMarketBuy(spec, units, near, want);
  const last = near[near.length - 1];
  if (near.length < MARKET_BUY_NEAR || (plan !== null && last !== undefined && plan.capTicks !== last[0]))
    return plan;
  return planMarketBuy(spec, units, vb.book.depth(Side.Sell, MARKET_BUY_DEPTH, accountId), want);
}

/** The IOC limit a stop-market buy runs at (the domain's conditional-order rule). */
export const stopMarketCap = (spec: InstrumentSpec, stopTicks: number): number =>
  stopMarketCapTicks(stopTicks, spec.maxPriceTicks);

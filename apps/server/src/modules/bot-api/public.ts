import type {
  FuturesMark,
  KlineIntervalValue,
  MarginPairInfo,
  MarketSymbolInfo,
  Ticker,
} from "@meridian/contracts";
import {
  COIN_PERP_CONTRACTS,
  type CoinPerpContract,
  coinPerpContract,
  formatScaled,
  futuresFeeRates,
  PERP_CONTRACTS,
  perpContract,
  VIP_TIERS,
} from "@meridian/domain";
import { z } from "zod";
import type { FundingRateRow, MarkCandle, MarkPriceKind } from "../futures/index.ts";
import type { MarketService } from "../market/index.ts";
import { BitgetCode, BitgetError, bgInt } from "./bitget.ts";
import type { V2Router } from "./v2-scope.ts";

/** What the public endpoints read: the market module, and futures marks when that module runs. */
export interface PublicDeps {
  market: MarketService;
  marks: () => FuturesMark[];
  /** The margin module's pairs, when it runs. */
  marginPairs?: () => MarginPairInfo[];
  /** The futures module's open interest on a perpetual, when it runs. */
  openInterest?: (symbol: string) => Promise<{ symbol: string; size: string; time: number }>;
  /** The futures module's settled funding rates of a perpetual, newest first, when it runs. */
  fundingRates?: (symbol: string, limit: number, offset: number) => Promise<FundingRateRow[]>;
  /** The futures module's mark or index candles of a perpetual, when it runs. */
  markCandles?: (
    kind: MarkPriceKind,
    symbol: string,
    interval: KlineIntervalValue,
    limit: number,
    endTime?: number,
  ) => MarkCandle[] | undefined;
  now: () => number;
}

/**
 * The product types Meridian lists: USDT-M (BTCUSDT) and coin-M (BTCUSD) perpetuals; the
 * others answer an empty list (ccxt asks for all six).
 */
export const USDT_FUTURES = "USDT-FUTURES";
export const COIN_FUTURES = "COIN-FUTURES";

/** The margin family a listed product type trades, or undefined for the ones Meridian lacks. */
export const familyOf = (productType: string): "usdt" | "coin" | undefined =>
  productType === USDT_FUTURES ? "usdt" : productType === COIN_FUTURES ? "coin" : undefined;

/** The spot market a coin-M contract's ticker, book, candles and trades come from (BTCUSD: BTCUSDT). */
export const coinMarket = (c: CoinPerpContract): string => `${c.base}USDT`;

/**
 * A perpetual of `productType` by symbol, with the market its ticker, book and trades come
 * from (a USDT-M contract's own, a coin-M contract's coin against USDT); Bitget's unknown
 * symbol error for a symbol of another product type or none.
 */
export function listedPerp(productType: string, symbol: string): { symbol: string; market: string } {
  const family = familyOf(productType);
  if (family === "usdt" && perpContract(symbol) !== undefined) return { symbol, market: symbol };
  const coin = family === "coin" ? coinPerpContract(symbol) : undefined;
  if (coin !== undefined) return { symbol, market: coinMarket(coin) };
  throw new BitgetError(BitgetCode.SYMBOL_UNKNOWN, `Parameter ${symbol} does not exist`);
}
export const PRODUCT_TYPES = [
  "USDT-FUTURES",
  "COIN-FUTURES",
  "USDC-FUTURES",
  "SUSDT-FUTURES",
  "SCOIN-FUTURES",
  "SUSDC-FUTURES",
] as const;

const productType = z
  .string()
  .transform((s) => s.toUpperCase())
  .pipe(z.enum(PRODUCT_TYPES));

const SPOT_GRANULARITY: Readonly<Record<string, KlineIntervalValue>> = {
  "1min": "1m",
  "5min": "5m",
  "15min": "15m",
  "30min": "30m",
  "1h": "1h",
  "4h": "4h",
  "1day": "1d",
  "1Dutc": "1d",
};
const MIX_GRANULARITY: Readonly<Record<string, KlineIntervalValue>> = {
  "1m": "1m",
  "5m": "5m",
  "15m": "15m",
  "30m": "30m",
  "1H": "1h",
  "4H": "4h",
  "1D": "1d",
  "1Dutc": "1d",
};

/** Parts per million as a fraction string (1000 -> "0.001"). */
export const ppmRate = (ppm: number): string => formatScaled(BigInt(ppm), 6).replace(/\.?0+$/, "") || "0";

const base = VIP_TIERS[0];
export const MAKER_RATE = ppmRate(base?.makerPpm ?? 1000);
export const TAKER_RATE = ppmRate(base?.takerPpm ?? 1000);

const symbolQuery = z.object({
  symbol: z
    .string()
    .regex(/^[A-Za-z0-9]{2,20}$/)
    .transform((s) => s.toUpperCase()),
});
const optionalSymbol = z.object({
  symbol: z
    .string()
    .regex(/^[A-Za-z0-9]{2,20}$/)
    .transform((s) => s.toUpperCase())
    .optional(),
});
const limitOf = (max: number, fallback: number) =>
  bgInt.optional().transform((n) => Math.min(max, Math.max(1, n ?? fallback)));

/** Decimals of a step ("0.01" -> 2). */
const decimals = (step: string): number => (step.includes(".") ? (step.split(".")[1] ?? "").length : 0);

/** The size limits and spot fee rates a spot symbol and its margin listing share. */
const tradeLimits = (s: MarketSymbolInfo) => ({
  minTradeAmount: s.minQty,
  maxTradeAmount: s.maxQty,
  minTradeUSDT: s.minNotional,
  takerFeeRate: TAKER_RATE,
  makerFeeRate: MAKER_RATE,
});

function ratio(part: string, whole: string): string {
  const w = Number(whole);
  if (!Number.isFinite(w) || w === 0) return "0";
  // A display ratio (24 h change), not an amount: a float is exact enough here.
  return (Number(part) / w).toFixed(6);
}

/** Bitget's spot and futures ticker objects (REST and the `ticker` channel share them). */
export function tickerBuilders(d: PublicDeps) {
  const spotTicker = (t: Ticker) => {
    const top = d.market.depth(t.symbol, 1);
    return {
      symbol: t.symbol,
      high24h: t.highPrice,
      open: t.openPrice,
      lowPr: t.lowPrice,
      low24h: t.lowPrice,
      lastPr: t.lastPrice,
      quoteVolume: t.quoteVolume,
      baseVolume: t.volume,
      usdtVolume: t.quoteVolume,
      bidPr: t.bidPrice,
      askPr: t.askPrice,
      bidSz: top?.bids[0]?.[1] ?? "0",
      askSz: top?.asks[0]?.[1] ?? "0",
      openUtc: t.openPrice,
      ts: String(t.closeTime),
      changeUtc24h: ratio(t.priceChange, t.openPrice),
      change24h: ratio(t.priceChange, t.openPrice),
    };
  };

  /** A perpetual's ticker: its market's figures (a coin-M contract's coin against USDT) and its marks. */
  const mixTicker = (symbol: string, market = symbol) => {
    const t = d.market.ticker(market);
    if (t === undefined) return undefined;
    const mark = d.marks().find((m) => m.symbol === symbol);
    const s = spotTicker(t);
    return {
      symbol,
      lastPr: s.lastPr,
      askPr: s.askPr,
      bidPr: s.bidPr,
      bidSz: s.bidSz,
      askSz: s.askSz,
      high24h: s.high24h,
      low24h: s.low24h,
      ts: s.ts,
      change24h: s.change24h,
      baseVolume: s.baseVolume,
      quoteVolume: s.quoteVolume,
      usdtVolume: s.usdtVolume,
      openUtc: s.openUtc,
      changeUtc24h: s.changeUtc24h,
      indexPrice: mark?.indexPrice ?? s.lastPr,
      fundingRate: mark?.fundingRate ?? "0",
      holdingAmount: "0",
      deliveryStartTime: null,
      deliveryTime: null,
      deliveryStatus: "",
      open24h: s.open,
      markPrice: mark?.markPrice ?? s.lastPr,
    };
  };

  return { spotTicker, mixTicker };
}

/** The size terms that differ between a USDT-M and a coin-M contract's row. */
interface ContractSizes {
  marginCoin: string;
  minTradeNum: string;
  volumePlace: string;
  sizeMultiplier: string;
  minTradeUSDT: string;
}

/** A perpetual as Bitget's `mix/market/contracts` lists it; `sizes` are its family's. */
function contractRow(
  c: { symbol: string; base: string; quote: string; maxLeverage: number; instrument: { tickSize: string } },
  sizes: ContractSizes,
) {
  const tick = c.instrument.tickSize;
  return {
    symbol: c.symbol,
    baseCoin: c.base,
    quoteCoin: c.quote,
    buyLimitPriceRatio: "0.05",
    sellLimitPriceRatio: "0.05",
    feeRateUpRatio: "0.005",
    makerFeeRate: ppmRate(futuresFeeRates(0).makerPpm),
    takerFeeRate: ppmRate(futuresFeeRates(0).takerPpm),
    openCostUpRatio: "0.01",
    supportMarginCoins: [sizes.marginCoin],
    minTradeNum: sizes.minTradeNum,
    priceEndStep: tick.replace(".", "").replace(/^0+/, "") || "1",
    volumePlace: sizes.volumePlace,
    pricePlace: String(decimals(tick)),
    sizeMultiplier: sizes.sizeMultiplier,
    symbolType: "perpetual",
    minTradeUSDT: sizes.minTradeUSDT,
    maxSymbolOrderNum: "200",
    maxProductOrderNum: "400",
    maxPositionNum: "150",
    symbolStatus: "normal",
    offTime: "-1",
    limitOpenTime: "-1",
    deliveryTime: "",
    deliveryStartTime: "",
    deliveryPeriod: "",
    launchTime: "",
    fundInterval: "8",
    minLever: "1",
    maxLever: String(c.maxLeverage),
    posLimit: "0.05",
    maintainTime: "",
  };
}

/**
 * A coin-M contract as Bitget lists COIN-FUTURES: quoted in USD, margined in its base coin
 * (`supportMarginCoins`, which makes it ccxt's inverse `BTC/USD:BTC`). Sizes are whole
 * contracts of `contractValue` USD each (Meridian's unit, docs/bot-api.md), so the size
 * step and minimum are 1.
 */
function coinContract(c: CoinPerpContract) {
  return {
    ...contractRow(c, {
      marginCoin: c.marginAsset,
      minTradeNum: "1",
      volumePlace: "0",
      sizeMultiplier: "1",
      minTradeUSDT: c.contractValue,
    }),
    contractValue: c.contractValue,
  };
}

// Request schemas, built once (a schema built per request is compiled again by zod on
// its first parse: ~0.1 ms each).
const contractsQuery = z.object({ productType, symbol: optionalSymbol.shape.symbol });
const tickerQuery = z.object({ productType, symbol: symbolQuery.shape.symbol });
const tickersQuery = z.object({ productType });
const orderbookQuery = z.object({ symbol: symbolQuery.shape.symbol, limit: limitOf(150, 150) });
const mergeDepthQuery = z.object({ symbol: symbolQuery.shape.symbol, productType, limit: limitOf(100, 100) });
const fillsHistoryQuery = z.object({ symbol: symbolQuery.shape.symbol, limit: limitOf(1000, 500) });
const fillsQuery = z.object({ symbol: symbolQuery.shape.symbol, limit: limitOf(500, 100) });
const mixFillsHistoryQuery = z.object({
  symbol: symbolQuery.shape.symbol,
  productType,
  limit: limitOf(1000, 500),
});
const mixFillsQuery = z.object({ symbol: symbolQuery.shape.symbol, productType, limit: limitOf(100, 100) });
const symbolPriceQuery = z.object({ symbol: optionalSymbol.shape.symbol, productType });
const openInterestQuery = z.object({ symbol: symbolQuery.shape.symbol, productType });
const historyFundRateQuery = z.object({
  symbol: symbolQuery.shape.symbol,
  productType,
  pageSize: bgInt.optional().transform((n) => Math.min(100, Math.max(1, n ?? 20))),
  pageNo: bgInt.optional().transform((n) => Math.max(1, n ?? 1)),
});
const currentFundRateQuery = z.object({ symbol: optionalSymbol.shape.symbol, productType });

export function registerPublic(r: V2Router, d: PublicDeps): void {
  const { spotTicker, mixTicker } = tickerBuilders(d);
  const known = (symbol: string) => {
    if (!d.market.has(symbol))
      throw new BitgetError(BitgetCode.SYMBOL_UNKNOWN, `Parameter ${symbol} does not exist`);
    return symbol;
  };

  r.open("/v2/public/time", () => ({ serverTime: String(d.now()) }));

  r.open("/v2/spot/public/coins", () => {
    const coins = new Set<string>();
    for (const s of d.market.symbolInfo()) {
      coins.add(s.base);
      coins.add(s.quote);
    }
    return [...coins].map((coin, i) => ({
      coinId: String(i + 1),
      coin,
      transfer: "true",
      chains: [],
    }));
  });

  r.open("/v2/spot/public/symbols", ({ query }) => {
    const { symbol } = optionalSymbol.parse(query);
    return d.market
      .symbolInfo()
      .filter((s) => symbol === undefined || s.symbol === symbol)
      .map((s) => ({
        symbol: s.symbol,
        baseCoin: s.base,
        quoteCoin: s.quote,
        ...tradeLimits(s),
        pricePrecision: String(decimals(s.tickSize)),
        quantityPrecision: String(decimals(s.lotSize)),
        quotePrecision: String(decimals(s.tickSize)),
        status: "online",
        buyLimitPriceRatio: "0.05",
        sellLimitPriceRatio: "0.05",
        orderQuantity: "200",
        areaSymbol: "no",
      }));
  });

  // Every marginable pair, borrowable in both modes: ccxt sets `market.margin` from this list.
  r.open("/v2/margin/currencies", () => {
    const specs = new Map(d.market.symbolInfo().map((s) => [s.symbol, s]));
    return (d.marginPairs?.() ?? []).flatMap((p) => {
      const s = specs.get(p.symbol);
      if (s === undefined) return [];
      return [
        {
          symbol: p.symbol,
          baseCoin: p.base,
          quoteCoin: p.quote,
          maxCrossedLeverage: String(p.crossLeverage),
          maxIsolatedLeverage: String(p.isolatedLeverage),
          ...tradeLimits(s),
          priceScale: String(decimals(s.tickSize)),
          quantityScale: String(decimals(s.lotSize)),
          isBorrowable: true,
          userMinBorrow: "0",
          status: "1",
          isIsolatedBaseBorrowable: true,
          isIsolatedQuoteBorrowable: true,
          isCrossBorrowable: true,
        },
      ];
    });
  });

  r.open("/v2/mix/market/contracts", ({ query }) => {
    const q = contractsQuery.parse(query);
    if (q.productType === COIN_FUTURES)
      return COIN_PERP_CONTRACTS.filter((c) => q.symbol === undefined || c.symbol === q.symbol).map(
        coinContract,
      );
    if (q.productType !== USDT_FUTURES) return [];
    return PERP_CONTRACTS.filter((c) => q.symbol === undefined || c.symbol === q.symbol).map((c) =>
      contractRow(c, {
        marginCoin: c.quote,
        minTradeNum: c.instrument.lotSize,
        volumePlace: String(decimals(c.instrument.lotSize)),
        sizeMultiplier: c.instrument.lotSize,
        minTradeUSDT: c.instrument.minNotional,
      }),
    );
  });

  r.open("/v2/spot/market/tickers", ({ query }) => {
    const { symbol } = optionalSymbol.parse(query);
    const list = symbol === undefined ? d.market.tickers() : [d.market.ticker(known(symbol))];
    return list.filter((t): t is Ticker => t !== undefined).map(spotTicker);
  });

  r.open("/v2/mix/market/ticker", ({ query }) => {
    const q = tickerQuery.parse(query);
    if (familyOf(q.productType) === undefined) return [];
    const p = listedPerp(q.productType, q.symbol);
    const t = mixTicker(p.symbol, p.market);
    return t === undefined ? [] : [t];
  });

  r.open("/v2/mix/market/tickers", ({ query }) => {
    const q = tickersQuery.parse(query);
    if (q.productType === COIN_FUTURES)
      return COIN_PERP_CONTRACTS.map((c) => mixTicker(c.symbol, coinMarket(c))).filter(
        (t) => t !== undefined,
      );
    if (q.productType !== USDT_FUTURES) return [];
    return PERP_CONTRACTS.map((c) => mixTicker(c.symbol)).filter((t) => t !== undefined);
  });

  const book = (symbol: string, limit: number) => {
    const depth = d.market.depth(symbol, limit);
    if (depth === undefined)
      throw new BitgetError(BitgetCode.SYMBOL_UNKNOWN, `Parameter ${symbol} does not exist`);
    return { asks: depth.asks, bids: depth.bids, ts: String(depth.time) };
  };

  r.open("/v2/spot/market/orderbook", ({ query }) => {
    const q = orderbookQuery.parse(query);
    return book(known(q.symbol), q.limit);
  });

  r.open("/v2/mix/market/merge-depth", ({ query }) => {
    const q = mergeDepthQuery.parse(query);
    return book(listedPerp(q.productType, q.symbol).market, q.limit);
  });

  const candles = (
    symbol: string,
    interval: KlineIntervalValue | undefined,
    limit: number,
    endTime?: number,
  ) => {
    if (interval === undefined)
      throw new BitgetError(BitgetCode.PARAM_INVALID, "Parameter granularity error");
    return (d.market.klines(symbol, interval, limit, endTime) ?? []).map((k) => [
      String(k.openTime),
      k.open,
      k.high,
      k.low,
      k.close,
      k.volume,
      k.quoteVolume,
      k.quoteVolume,
    ]);
  };
  const candleQuery = z.object({
    symbol: symbolQuery.shape.symbol,
    granularity: z.string(),
    limit: limitOf(1000, 100),
    endTime: bgInt.optional(),
  });

  r.open("/v2/spot/market/candles", ({ query }) => {
    const q = candleQuery.parse(query);
    return candles(known(q.symbol), SPOT_GRANULARITY[q.granularity], q.limit, q.endTime);
  });
  r.open("/v2/spot/market/history-candles", ({ query }) => {
    const q = candleQuery.parse(query);
    return candles(known(q.symbol), SPOT_GRANULARITY[q.granularity], q.limit, q.endTime);
  });
  // Mark and index candles follow the futures mark model, not the last trade price.
  const markCandles = (
    kind: MarkPriceKind,
    symbol: string,
    granularity: string,
    limit: number,
    endTime?: number,
  ) => {
    const interval = MIX_GRANULARITY[granularity];
    if (interval === undefined)
      throw new BitgetError(BitgetCode.PARAM_INVALID, "Parameter granularity error");
    const list = d.markCandles?.(kind, symbol, interval, limit, endTime);
    if (list === undefined)
      throw new BitgetError(BitgetCode.SYMBOL_UNKNOWN, `Parameter ${symbol} does not exist`);
    return list.map((k) => [String(k.openTime), k.open, k.high, k.low, k.close, "0", "0"]);
  };
  r.open("/v2/mix/market/candles", ({ query }) => {
    const q = candleQuery
      .extend({
        productType,
        kLineType: z
          .string()
          .transform((s) => s.toUpperCase())
          .pipe(z.enum(["MARKET", "MARK", "INDEX"]))
          .optional(),
      })
      .parse(query);
    const p = listedPerp(q.productType, q.symbol);
    if (q.kLineType === "MARK" || q.kLineType === "INDEX")
      return markCandles(
        q.kLineType === "MARK" ? "mark" : "index",
        p.symbol,
        q.granularity,
        q.limit,
        q.endTime,
      );
    return candles(p.market, MIX_GRANULARITY[q.granularity], q.limit, q.endTime).map((k) => k.slice(0, 7));
  });
  r.open("/v2/mix/market/history-mark-candles", ({ query }) => {
    const q = candleQuery.extend({ productType, limit: limitOf(200, 100) }).parse(query);
    return markCandles("mark", listedPerp(q.productType, q.symbol).symbol, q.granularity, q.limit, q.endTime);
  });
  r.open("/v2/mix/market/history-index-candles", ({ query }) => {
    const q = candleQuery.extend({ productType, limit: limitOf(200, 100) }).parse(query);
    return markCandles(
      "index",
      listedPerp(q.productType, q.symbol).symbol,
      q.granularity,
      q.limit,
      q.endTime,
    );
  });

  /** The last trades of `market`, under `symbol` (a coin-M contract's are its coin's spot trades). */
  const trades = (symbol: string, limit: number, market = symbol) =>
    (d.market.trades(market, limit) ?? []).map((t) => ({
      symbol,
      tradeId: String(t.id),
      side: t.isBuyerMaker ? "sell" : "buy",
      price: t.price,
      size: t.qty,
      ts: String(t.time),
    }));
  r.open("/v2/spot/market/fills-history", ({ query }) => {
    const q = fillsHistoryQuery.parse(query);
    return trades(known(q.symbol), q.limit);
  });
  r.open("/v2/spot/market/fills", ({ query }) => {
    const q = fillsQuery.parse(query);
    return trades(known(q.symbol), q.limit);
  });
  r.open("/v2/mix/market/fills-history", ({ query }) => {
    const q = mixFillsHistoryQuery.parse(query);
    const p = listedPerp(q.productType, q.symbol);
    return trades(p.symbol, q.limit, p.market);
  });
  r.open("/v2/mix/market/fills", ({ query }) => {
    const q = mixFillsQuery.parse(query);
    const p = listedPerp(q.productType, q.symbol);
    return trades(p.symbol, q.limit, p.market);
  });

  /** The marks of the product type's contracts (its symbol's alone when one is named). */
  const marksOf = (productType: string, symbol: string | undefined) => {
    const family = familyOf(productType);
    return d
      .marks()
      .filter((m) => (m.family ?? "usdt") === family && (symbol === undefined || m.symbol === symbol));
  };
  const lastOf = (symbol: string) => {
    const coin = coinPerpContract(symbol);
    return d.market.ticker(coin ? coinMarket(coin) : symbol)?.lastPrice;
  };

  // ccxt fetchMarkPrice: the mark, index and last price of the product type's contracts.
  r.open("/v2/mix/market/symbol-price", ({ query }) => {
    const q = symbolPriceQuery.parse(query);
    return marksOf(q.productType, q.symbol).map((m) => ({
      symbol: m.symbol,
      price: lastOf(m.symbol) ?? m.markPrice,
      indexPrice: m.indexPrice,
      markPrice: m.markPrice,
      ts: String(d.now()),
    }));
  });

  /** `served` for a listed contract of the product type, or Bitget's unknown-symbol error. */
  const servedFor = <T>(productType: string, symbol: string, served: T | undefined): T => {
    if (served === undefined || marksOf(productType, symbol).length === 0)
      throw new BitgetError(BitgetCode.SYMBOL_UNKNOWN, `Parameter ${symbol} does not exist`);
    return served;
  };

  // ccxt fetchOpenInterest: the size held in open paper positions (both sides summed).
  r.open("/v2/mix/market/open-interest", async ({ query }) => {
    const q = openInterestQuery.parse(query);
    const o = await servedFor(q.productType, q.symbol, d.openInterest)(q.symbol);
    return { openInterestList: [{ symbol: o.symbol, size: o.size }], ts: String(o.time) };
  });

  // ccxt fetchFundingRateHistory: the rates funding settled at, newest first, by page.
  r.open("/v2/mix/market/history-fund-rate", async ({ query }) => {
    const q = historyFundRateQuery.parse(query);
    const rates = servedFor(q.productType, q.symbol, d.fundingRates);
    const rows = await rates(q.symbol, q.pageSize, (q.pageNo - 1) * q.pageSize);
    return rows.map((f) => ({
      symbol: f.symbol,
      fundingRate: formatScaled(f.rateE8, 8),
      fundingTime: String(f.fundingTime),
    }));
  });

  r.open("/v2/mix/market/current-fund-rate", ({ query }) => {
    const q = currentFundRateQuery.parse(query);
    return marksOf(q.productType, q.symbol).map((m) => ({
      symbol: m.symbol,
      fundingRate: m.fundingRate,
      fundingRateInterval: "8",
      nextUpdate: String(m.nextFundingTime),
      minFundingRate: "-0.003",
      maxFundingRate: "0.003",
    }));
  });
}

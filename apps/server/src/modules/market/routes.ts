import {
  capsQuerySchema,
  depthQuerySchema,
  klinesQuerySchema,
  MarketPath,
  tickerQuerySchema,
  tradesQuerySchema,
} from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { errors } from "../../platform/errors.ts";
import { route } from "../../platform/http/route.ts";
import type { MarketService } from "./service.ts";

/** An unknown symbol is a bad `symbol` field (10422), like any other invalid query value. */
export function unknownSymbol(symbol: string) {
  return errors.validation([
    { field: "symbol", rule: "unknown_symbol", message: `Unknown symbol ${symbol}` },
  ]);
}

function found<T>(value: T | undefined, symbol: string): T {
  if (value === undefined) throw unknownSymbol(symbol);
  return value;
}

/** The public market data endpoints (no login, no signing). */
export function marketHttpRoutes(app: FastifyInstance, market: MarketService): void {
  route(app, { method: "GET", url: MarketPath.SYMBOLS, handler: () => market.symbolInfo() });
  route(app, { method: "GET", url: MarketPath.TICKERS, handler: () => market.tickers() });
  route(app, {
    method: "GET",
    url: MarketPath.TICKER,
    query: tickerQuerySchema,
    handler: ({ query }) => found(market.ticker(query.symbol), query.symbol),
  });
  route(app, {
    method: "GET",
    url: MarketPath.KLINES,
    query: klinesQuerySchema,
    handler: ({ query }) =>
      found(market.klines(query.symbol, query.interval, query.limit, query.endTime), query.symbol),
  });
  route(app, {
    method: "GET",
    url: MarketPath.DEPTH,
    query: depthQuerySchema,
    handler: ({ query }) => found(market.depth(query.symbol, query.limit), query.symbol),
  });
  route(app, {
    method: "GET",
    url: MarketPath.TRADES,
    query: tradesQuerySchema,
    handler: ({ query }) => found(market.trades(query.symbol, query.limit), query.symbol),
  });
  route(app, {
    method: "GET",
    url: MarketPath.CAPS,
    query: capsQuerySchema,
    handler: ({ query }) => market.caps(query.limit),
  });
  route(app, { method: "GET", url: MarketPath.STATUS, handler: () => market.status() });
}

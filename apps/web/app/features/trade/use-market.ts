import type { Depth, MarketSymbolInfo, MarketTrade, Ticker } from "@meridian/contracts";
import { createContext, useContext, useEffect, useState } from "react";
import { marketApi } from "./api.ts";
import type { SocketStatus } from "./live-socket.ts";
import { MarketFeed } from "./market-feed.ts";

/** What the route loader hands the page so the server renders real figures. */
export interface MarketSnapshot {
  symbols: MarketSymbolInfo[];
  tickers: Ticker[];
  depth: Depth | null;
  trades: MarketTrade[];
}

export const FeedContext = createContext<MarketFeed | null>(null);

/** The page's market feed (null during SSR and before the effect runs). */
export function useFeed(): MarketFeed | null {
  return useContext(FeedContext);
}

/** Creates and starts the page's feed in the browser; stops it on unmount. `reconnects` counts reopened links. */
export function useFeedLifecycle(): { feed: MarketFeed | null; status: SocketStatus; reconnects: number } {
  const [feed, setFeed] = useState<MarketFeed | null>(null);
  const [status, setStatus] = useState<SocketStatus>("connecting");
  const [reconnects, setReconnects] = useState(0);
  useEffect(() => {
    const f = new MarketFeed();
    let opened = false;
    const off = f.onStatus((s) => {
      setStatus(s);
      // Every open after the first is a reconnect: history readers reload what the gap missed.
      if (s === "open" && opened) setReconnects((n) => n + 1);
      if (s === "open") opened = true;
    });
    // Opened a tick later: a mount undone at once (React's strict mode) never dials out.
    const timer = setTimeout(() => f.start(), 0);
    setFeed(f);
    return () => {
      clearTimeout(timer);
      off();
      f.stop();
    };
  }, []);
  return { feed, status, reconnects };
}

const MAX_TRADES = 60;

/**
 * Live ticker, book and trades for one symbol plus every symbol's ticker: the loader's
 * snapshot first, then the stream; after a reconnect the REST snapshot is read again so
 * nothing missed while offline stays on screen.
 */
export function useMarket(symbol: string, initial: MarketSnapshot, status: SocketStatus) {
  const feed = useFeed();
  const [tickers, setTickers] = useState<Record<string, Ticker>>(() =>
    Object.fromEntries(initial.tickers.map((t) => [t.symbol, t])),
  );
  const [depth, setDepth] = useState<Depth | null>(initial.depth?.symbol === symbol ? initial.depth : null);
  const [trades, setTrades] = useState<{ symbol: string; list: MarketTrade[] }>({
    symbol: initial.depth?.symbol ?? symbol,
    list: initial.trades,
  });

  // Re-read on a symbol change and each time the link comes back.
  useEffect(() => {
    if (status !== "open") return undefined;
    let stale = false;
    void Promise.all([
      marketApi.depth(symbol, 100),
      marketApi.trades(symbol, MAX_TRADES),
      marketApi.tickers(),
    ])
      .then(([d, tr, tk]) => {
        if (stale) return;
        setDepth((prev) => (prev && prev.symbol === symbol && prev.lastUpdateId > d.lastUpdateId ? prev : d));
        setTrades({ symbol, list: tr });
        setTickers(Object.fromEntries(tk.map((t) => [t.symbol, t])));
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [symbol, status]);

  useEffect(() => {
    if (!feed) return undefined;
    const offs = [
      feed.on(`depth@${symbol}`, (d) => {
        const next = d as Depth;
        setDepth((prev) =>
          prev && prev.symbol === symbol && prev.lastUpdateId > next.lastUpdateId ? prev : next,
        );
      }),
      feed.on(`trades@${symbol}`, (t) => {
        const trade = t as MarketTrade;
        setTrades((prev) => ({
          symbol,
          list: [trade, ...(prev.symbol === symbol ? prev.list : []).filter((p) => p.id !== trade.id)].slice(
            0,
            MAX_TRADES,
          ),
        }));
      }),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [feed, symbol]);

  const symbolList = initial.symbols.map((s) => s.symbol).join(",");
  useEffect(() => {
    if (!feed) return undefined;
    const offs = symbolList
      .split(",")
      .filter(Boolean)
      .map((s) =>
        feed.on(`ticker@${s}`, (t) => {
          const ticker = t as Ticker;
          setTickers((prev) => ({ ...prev, [ticker.symbol]: ticker }));
        }),
      );
    return () => {
      for (const off of offs) off();
    };
  }, [feed, symbolList]);

  return {
    ticker: tickers[symbol],
    tickers,
    depth: depth?.symbol === symbol ? depth : null,
    trades: trades.symbol === symbol ? trades.list : [],
  };
}

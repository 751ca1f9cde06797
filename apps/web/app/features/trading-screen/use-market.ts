import type { Depth, MarketTrade, Ticker } from "@meridian/contracts";
import { createContext, useContext, useEffect, useState } from "react";
import { marketApi } from "../../api/paper.ts";
import { FrameStore, useFrameValue } from "./frame-store.ts";
import type { SocketStatus } from "./live-socket.ts";
import { MarketFeed } from "./market-feed.ts";
import { depthOf, MAX_TRADES, type MarketSnapshot, MarketStore, tradesOf } from "./market-store.ts";

export type { MarketSnapshot } from "./market-store.ts";
export { depthOf, MarketStore } from "./market-store.ts";

export const FeedContext = createContext<MarketFeed | null>(null);

/** The page's market feed (null during SSR). */
export function useFeed(): MarketFeed | null {
  return useContext(FeedContext);
}

/** The market link as the page shows it: its state, and how many times it came back. */
export interface LinkState {
  status: SocketStatus;
  /** Every open after the first: history readers (the chart) reload what the gap missed. */
  reconnects: number;
}

/**
 * The page's feed (made with the page in the browser, so nothing re-renders when it
 * appears), started after mount and stopped on unmount, and its link state in a store:
 * a status change re-renders the live dot and the chart's history, not the screen.
 */
export function useFeedLifecycle(): { feed: MarketFeed | null; link: FrameStore<LinkState> } {
  const [feed] = useState(() => (typeof window === "undefined" ? null : new MarketFeed()));
  const [link] = useState(() => new FrameStore<LinkState>({ status: "connecting", reconnects: 0 }));
  useEffect(() => {
    if (!feed) return undefined;
    let opened = false;
    const off = feed.onStatus((status) => {
      const { reconnects } = link.getState();
      link.set({ status, reconnects: status === "open" && opened ? reconnects + 1 : reconnects });
      if (status === "open") opened = true;
    });
    // Opened a tick later: a mount undone at once (React's strict mode) never dials out.
    const timer = setTimeout(() => feed.start(), 0);
    return () => {
      clearTimeout(timer);
      off();
      feed.stop();
    };
  }, [feed, link]);
  return { feed, link };
}

/**
 * Live ticker, book and trades for one symbol plus every symbol's ticker, held in a
 * {@link MarketStore} (stable for the page's life): the loader's snapshot first, then the
 * stream; each time the link opens the REST snapshot is read again so nothing missed
 * while offline stays on screen. Components read their slice with the hooks below.
 */
export function useMarket(symbol: string, initial: MarketSnapshot): MarketStore {
  const feed = useFeed();
  const [store] = useState(() => new MarketStore(symbol, initial));

  // Another symbol's page (a client navigation): its server snapshot until the reads below answer.
  useEffect(() => {
    if (initial.depth?.symbol !== symbol) return;
    store.setDepth(initial.depth);
    if (store.getState().trades.symbol !== symbol) store.setTrades(symbol, initial.trades);
  }, [store, symbol, initial]);

  // Re-read on a symbol change and each time the link (re)opens; a newer read wins.
  useEffect(() => {
    if (!feed) return undefined;
    let stale = false;
    let latest = 0;
    const read = () => {
      const id = ++latest;
      void Promise.all([
        marketApi.depth(symbol, 100),
        marketApi.trades(symbol, MAX_TRADES),
        marketApi.tickers(),
      ])
        .then(([d, tr, tk]) => {
          if (stale || id !== latest) return;
          store.setDepth(d);
          store.setTrades(symbol, tr);
          store.setTickers(tk);
        })
        .catch(() => undefined);
    };
    if (feed.status === "open") read();
    const off = feed.onStatus((s) => {
      if (s === "open") read();
    });
    return () => {
      stale = true;
      off();
    };
  }, [store, feed, symbol]);

  useEffect(() => {
    if (!feed) return undefined;
    const offs = [
      feed.on(`depth@${symbol}`, (d) => store.setDepth(d as Depth)),
      feed.on(`trades@${symbol}`, (t) => store.addTrade(symbol, t as MarketTrade)),
    ];
    return () => {
      for (const off of offs) off();
    };
  }, [store, feed, symbol]);

  // This symbol's ticker only: the others are followed while the switcher's list is open.
  useTickerStreams(store, symbol);

  return store;
}

/**
 * Follows the tickers of `symbols` (a comma-separated list) into the store while mounted.
 * The server answers each subscription with the current ticker, so a list opened later
 * shows fresh figures at once.
 */
export function useTickerStreams(store: MarketStore, symbols: string): void {
  const feed = useFeed();
  useEffect(() => {
    if (!feed) return undefined;
    const offs = symbols
      .split(",")
      .filter(Boolean)
      .map((s) => feed.on(`ticker@${s}`, (t) => store.setTicker(t as Ticker)));
    return () => {
      for (const off of offs) off();
    };
  }, [store, feed, symbols]);
}

export const useTicker = (store: MarketStore, symbol: string, paused = false): Ticker | undefined =>
  useFrameValue(store, (s) => s.tickers[symbol], paused);

/** The symbol's last price; undefined, and no re-render on ticks, while `live` is false. */
export const useLastPrice = (store: MarketStore, symbol: string, live = true): string | undefined =>
  useFrameValue(store, (s) => (live ? s.tickers[symbol]?.lastPrice : undefined));

export const useTickers = (store: MarketStore): Readonly<Record<string, Ticker>> =>
  useFrameValue(store, (s) => s.tickers);

/** `paused`: the reader is hidden (a phone tab), see {@link useFrameValue}. */
export const useDepth = (store: MarketStore, symbol: string, paused = false): Depth | null =>
  useFrameValue(store, (s) => depthOf(s, symbol), paused);

export const useTrades = (store: MarketStore, symbol: string, paused = false): readonly MarketTrade[] =>
  useFrameValue(store, (s) => tradesOf(s, symbol), paused);

export const useLinkStatus = (link: FrameStore<LinkState>): SocketStatus =>
  useFrameValue(link, (s) => s.status);

export const useReconnects = (link: FrameStore<LinkState>): number =>
  useFrameValue(link, (s) => s.reconnects);

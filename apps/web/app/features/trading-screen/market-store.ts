import type { Depth, MarketSymbolInfo, MarketTrade, Ticker } from "@meridian/contracts";
import { FrameStore } from "./frame-store.ts";

/** What the route loader hands the page so the server renders real figures. */
export interface MarketSnapshot {
  symbols: MarketSymbolInfo[];
  tickers: Ticker[];
  depth: Depth | null;
  trades: MarketTrade[];
}

/** The live market a trading screen shows: every symbol's ticker, one symbol's book and trades. */
export interface MarketState {
  readonly tickers: Readonly<Record<string, Ticker>>;
  /** The book last received, whichever symbol it is of (readers check). */
  readonly depth: Depth | null;
  /** The latest trades of `symbol`, newest first. */
  readonly trades: { readonly symbol: string; readonly list: readonly MarketTrade[] };
}

export const MAX_TRADES = 60;
const NO_TRADES: readonly MarketTrade[] = [];

/**
 * The page's market outside React: every symbol's ticker four times a second, the book
 * and each trade land here, and the components that show them hear of it once a frame
 * (see {@link FrameStore}); an ETH tick re-renders the switcher's list while it is open,
 * not the BTC order forms.
 */
export class MarketStore extends FrameStore<MarketState> {
  constructor(symbol: string, snapshot: MarketSnapshot, schedule?: (fn: () => void) => void) {
    super(
      {
        tickers: Object.fromEntries(snapshot.tickers.map((t) => [t.symbol, t])),
        depth: snapshot.depth?.symbol === symbol ? snapshot.depth : null,
        trades: { symbol: snapshot.depth?.symbol ?? symbol, list: snapshot.trades },
      },
      schedule,
    );
  }

  /** A pushed or read book: an older one (by update id) of the same symbol never replaces a newer. */
  setDepth(next: Depth): void {
    const prev = this.getState().depth;
    if (prev && prev.symbol === next.symbol && prev.lastUpdateId > next.lastUpdateId) return;
    this.change({ depth: next });
  }

  /** One pushed trade of `symbol`, on top, once. */
  addTrade(symbol: string, trade: MarketTrade): void {
    const prev = this.getState().trades;
    const rest = (prev.symbol === symbol ? prev.list : NO_TRADES).filter((p) => p.id !== trade.id);
    this.change({ trades: { symbol, list: [trade, ...rest].slice(0, MAX_TRADES) } });
  }

  /** A read of `symbol`'s latest trades replaces the list. */
  setTrades(symbol: string, list: readonly MarketTrade[]): void {
    this.change({ trades: { symbol, list } });
  }

  setTicker(ticker: Ticker): void {
    this.change({ tickers: { ...this.getState().tickers, [ticker.symbol]: ticker } });
  }

  /** A read of every ticker replaces the map. */
  setTickers(list: readonly Ticker[]): void {
    this.change({ tickers: Object.fromEntries(list.map((t) => [t.symbol, t])) });
  }

  private change(part: Partial<MarketState>): void {
    this.set({ ...this.getState(), ...part });
  }
}

/** `symbol`'s book in `state`, null while the one held is another symbol's. */
export function depthOf(state: MarketState, symbol: string): Depth | null {
  return state.depth?.symbol === symbol ? state.depth : null;
}

/** `symbol`'s latest trades in `state` (none while the list held is another symbol's). */
export function tradesOf(state: MarketState, symbol: string): readonly MarketTrade[] {
  return state.trades.symbol === symbol ? state.trades.list : NO_TRADES;
}

import type { MarketSymbolInfo, OrderSideValue, PaperTrade } from "@meridian/contracts";
import { type ReactNode, startTransition, useEffect, useMemo, useState } from "react";
import type { FrameStore } from "./frame-store.ts";
import { KlineChart } from "./kline-chart.tsx";
import { OrderBook } from "./order-book.tsx";
import type { SymbolIndex } from "./order-tables.tsx";
import { type PhoneTab, PhoneTabs } from "./phone-tabs.tsx";
import { RecentTrades } from "./recent-trades.tsx";
import { TickerBar } from "./ticker-bar.tsx";
import {
  FeedContext,
  type LinkState,
  type MarketSnapshot,
  useFeedLifecycle,
  useMarket,
} from "./use-market.ts";

const PHONE_QUERY = "(max-width: 767px)";

/** True at phone width (or always when `forced`, the fixed phone layouts). */
export function useIsPhone(forced: boolean): boolean {
  const [phone, setPhone] = useState(forced);
  useEffect(() => {
    if (forced) return undefined;
    const mq = window.matchMedia(PHONE_QUERY);
    const update = () => setPhone(mq.matches);
    // The first reading re-renders the whole screen right after hydration (on a phone
    // the book and trades lists shrink and hide): as a transition React renders it in
    // short slices instead of one long task.
    startTransition(update);
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, [forced]);
  return phone;
}

/** What every trading screen's page hands it (spot, margin, futures). */
export interface TradingScreenProps {
  locale: string;
  symbol: string;
  snapshot: MarketSnapshot;
  dark: boolean;
  loggedIn: boolean;
}

/** The market link's state a screen hands its parts (the feed itself is in FeedContext). */
export type FeedState = FrameStore<LinkState>;

/** Starts the page's market feed, provides it to the screen below and hands the screen its link state. */
export function MarketFeedScope({ render }: { render: (feed: FeedState) => ReactNode }) {
  const { feed, link } = useFeedLifecycle();
  return <FeedContext.Provider value={feed}>{render(link)}</FeedContext.Provider>;
}

/**
 * The state every trading screen keeps around the shared market half: the live market,
 * the phone layout and its tab, the form side, and a price picked from the book (which
 * on a phone opens the form).
 */
export function useMarketScreen(
  symbol: string,
  snapshot: MarketSnapshot,
  feed: FeedState,
  layout: "auto" | "phone",
) {
  const market = useMarket(symbol, snapshot);
  const phone = useIsPhone(layout === "phone");
  const [phoneTab, setPhoneTab] = useState<PhoneTab>("chart");
  const [side, setSide] = useState<OrderSideValue>("BUY");
  const [picked, setPicked] = useState<{ price: string; seq: number } | null>(null);
  const symbols: SymbolIndex = useMemo(
    () => Object.fromEntries(snapshot.symbols.map((s) => [s.symbol, s])),
    [snapshot.symbols],
  );
  return {
    feed,
    market,
    phone,
    phoneTab,
    setPhoneTab,
    side,
    setSide,
    picked,
    symbols,
    info: symbols[symbol] as MarketSymbolInfo | undefined,
    pickPrice(price: string) {
      setPicked((prev) => ({ price, seq: (prev?.seq ?? 0) + 1 }));
      if (phone) setPhoneTab("form");
    },
    /** The phone action bar: the form tab, on `side` when given. */
    openForm(pick?: OrderSideValue) {
      if (pick) setSide(pick);
      setPhoneTab("form");
    },
  };
}

export type MarketScreenState = ReturnType<typeof useMarketScreen>;

export interface MarketScreenProps {
  /** Extra class on the grid (e.g. "margin", "futures"). */
  className?: string;
  layout: "auto" | "phone";
  testId: string;
  heading: string;
  /** Under the pair in the ticker bar instead of the coin's name (futures: "Perpetual"). */
  subtitle?: string;
  info: MarketSymbolInfo;
  snapshot: MarketSnapshot;
  screen: MarketScreenState;
  dark: boolean;
  hrefFor: (symbol: string) => string;
  /** Right end of the ticker bar (simulation badge, mark stats). */
  extra: ReactNode;
  /** The user's fills drawn on the chart. */
  fills: readonly PaperTrade[];
  /** The order panel (grid area "order") and the account tables (area "orders"). */
  order: ReactNode;
  orders: ReactNode;
  /** The buttons fixed under a phone screen (buy/sell, open long/short). */
  phoneActions: ReactNode;
  phoneActionsTestId?: string;
  guide?: string | undefined;
  /** No market behind the screen (a coin-M contract whose coin has no spot market): no chart. */
  marketless?: boolean;
  children?: ReactNode;
}

/**
 * The market half every trading screen shares (spot, margin, futures): ticker bar, phone tabs,
 * chart, book and recent trades on the trade.css grid, with the screen's own order
 * panel and account tables slotted in.
 */
export function MarketScreen(props: MarketScreenProps) {
  const { info, screen } = props;
  const { market, phone, feed } = screen;
  return (
    <div
      className={`trade ${props.className ?? ""} ${props.layout === "phone" ? "trade-phone" : "trade-auto"}`}
      data-tab={screen.phoneTab}
      data-guide={props.guide}
      data-testid={props.testId}
    >
      <h1 className="trade-visually-hidden">{props.heading}</h1>
      <TickerBar
        info={info}
        market={market}
        symbols={props.snapshot.symbols}
        link={feed}
        hrefFor={props.hrefFor}
        extra={props.extra}
        subtitle={props.subtitle}
      />
      <PhoneTabs active={screen.phoneTab} onChange={screen.setPhoneTab} />
      {props.marketless ? (
        <section className="trade-panel trade-chart" aria-hidden="true" />
      ) : (
        <KlineChart
          symbol={info.symbol}
          priceDecimals={info.priceDecimals}
          dark={props.dark}
          fills={props.fills}
          link={feed}
        />
      )}
      <OrderBook
        info={info}
        market={market}
        rows={phone ? 10 : 16}
        onPickPrice={screen.pickPrice}
        hidden={phone && screen.phoneTab !== "book"}
      />
      <RecentTrades
        info={info}
        market={market}
        limit={phone ? 24 : undefined}
        hidden={phone && screen.phoneTab !== "trades"}
      />
      {props.order}
      {props.orders}
      <div className="trade-phone-actions" data-testid={props.phoneActionsTestId}>
        {props.phoneActions}
      </div>
      {props.children}
    </div>
  );
}

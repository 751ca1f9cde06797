import type { MarketSymbolInfo, PaperTrade } from "@meridian/contracts";
import { type ReactNode, useEffect, useState } from "react";
import { KlineChart } from "./kline-chart.tsx";
import { OrderBook } from "./order-book.tsx";
import { type PhoneTab, PhoneTabs } from "./phone-tabs.tsx";
import { RecentTrades } from "./recent-trades.tsx";
import { TickerBar } from "./ticker-bar.tsx";
import type { MarketSnapshot, useFeedLifecycle, useMarket } from "./use-market.ts";

const PHONE_QUERY = "(max-width: 767px)";

/** True at phone width (or always when `forced`, the fixed phone layouts). */
export function useIsPhone(forced: boolean): boolean {
  const [phone, setPhone] = useState(forced);
  useEffect(() => {
    if (forced) return undefined;
    const mq = window.matchMedia(PHONE_QUERY);
    const update = () => setPhone(mq.matches);
    update();
    mq.addEventListener("change", update);
    return () => mq.removeEventListener("change", update);
  }, [forced]);
  return phone;
}

export interface MarketScreenProps {
  /** Extra class on the grid (e.g. "margin"). */
  className?: string;
  layout: "auto" | "phone";
  testId: string;
  heading: string;
  info: MarketSymbolInfo;
  snapshot: MarketSnapshot;
  market: ReturnType<typeof useMarket>;
  feed: Omit<ReturnType<typeof useFeedLifecycle>, "feed">;
  dark: boolean;
  phone: boolean;
  phoneTab: PhoneTab;
  onPhoneTab: (tab: PhoneTab) => void;
  hrefFor: (symbol: string) => string;
  /** Right end of the ticker bar (simulation badge, mark stats). */
  extra: ReactNode;
  /** The user's fills drawn on the chart. */
  fills: readonly PaperTrade[];
  onPickPrice: (price: string) => void;
  /** The order panel (grid area "order") and the account tables (area "orders"). */
  order: ReactNode;
  orders: ReactNode;
  /** The buy/sell buttons fixed under a phone screen. */
  phoneActions: ReactNode;
  guide?: string | undefined;
  children?: ReactNode;
}

/**
 * The market half every trading screen shares (spot, margin): ticker bar, phone tabs,
 * chart, book and recent trades on the trade.css grid, with the screen's own order
 * panel and account tables slotted in.
 */
export function MarketScreen(props: MarketScreenProps) {
  const { info, market, phone, feed } = props;
  return (
    <div
      className={`trade ${props.className ?? ""} ${props.layout === "phone" ? "trade-phone" : "trade-auto"}`}
      data-tab={props.phoneTab}
      data-guide={props.guide}
      data-testid={props.testId}
    >
      <h1 className="trade-visually-hidden">{props.heading}</h1>
      <TickerBar
        info={info}
        ticker={market.ticker}
        symbols={props.snapshot.symbols}
        tickers={market.tickers}
        status={feed.status}
        hrefFor={props.hrefFor}
        extra={props.extra}
      />
      <PhoneTabs active={props.phoneTab} onChange={props.onPhoneTab} />
      <KlineChart
        symbol={info.symbol}
        priceDecimals={info.priceDecimals}
        dark={props.dark}
        fills={props.fills}
        reconnects={feed.reconnects}
      />
      <OrderBook
        info={info}
        depth={market.depth}
        ticker={market.ticker}
        rows={phone ? 10 : 16}
        onPickPrice={props.onPickPrice}
      />
      <RecentTrades info={info} trades={phone ? market.trades.slice(0, 24) : market.trades} />
      {props.order}
      {props.orders}
      <div className="trade-phone-actions">{props.phoneActions}</div>
      {props.children}
    </div>
  );
}

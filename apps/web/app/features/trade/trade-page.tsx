import { vipTier } from "@meridian/domain";
import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import {
  type FeedState,
  MarketFeedScope,
  MarketScreen,
  type TradingScreenProps,
  useMarketScreen,
} from "../trading-screen/market-screen.tsx";
import type { FeeRates } from "../trading-screen/order-form-state.ts";
import { PhoneSideButtons, SimulationBarControls, useTradeAccess } from "../trading-screen/panel-parts.tsx";
import type { PhoneTab } from "../trading-screen/phone-tabs.tsx";
import { useGuide } from "./guide.tsx";
import { OrderPanel } from "./order-panel.tsx";
import { OrdersPanel } from "./orders-panel.tsx";
import { usePaper } from "./use-paper.ts";

export interface TradePageProps extends TradingScreenProps {
  /** `phone` is /trade-spot: the stacked layout at any width. */
  layout: "auto" | "phone";
  /** The document's CSP nonce (the first-visit tour's boot script). */
  nonce: string | undefined;
  hrefFor: (symbol: string) => string;
}

/**
 * The spot screen: ticker bar, chart, book, trades, order forms and the user's orders.
 * Desktop is the classic exchange grid; phones stack the areas behind tabs.
 */
export function TradePage(props: TradePageProps) {
  return <MarketFeedScope render={(feed) => <TradeScreen {...props} feed={feed} />} />;
}

function TradeScreen({
  locale,
  symbol,
  snapshot,
  layout,
  dark,
  loggedIn,
  hrefFor,
  nonce,
  feed,
}: TradePageProps & { feed: FeedState }) {
  const { t } = useTranslation("trade");
  const access = useTradeAccess(loggedIn);
  const paper = usePaper(access === "ready");
  const screen = useMarketScreen(symbol, snapshot, feed, layout);
  const { phone, setPhoneTab, symbols, info } = screen;
  const guide = useGuide(nonce);
  const fee: FeeRates = useMemo(() => {
    const tier = paper.fees?.current ?? vipTier(0);
    return { level: tier.level, makerPpm: tier.makerPpm, takerPpm: tier.takerPpm };
  }, [paper.fees]);

  useEffect(() => {
    if (guide.step === null || !phone) return;
    const map: Record<string, PhoneTab> = { chart: "chart", book: "book", form: "form" };
    const tab = map[guide.step];
    if (tab) setPhoneTab(tab);
  }, [guide.step, phone, setPhoneTab]);

  if (!info) return null;

  return (
    <MarketScreen
      layout={layout}
      testId="trade-page"
      heading={t("meta.heading", { base: info.base, quote: info.quote })}
      info={info}
      snapshot={snapshot}
      screen={screen}
      dark={dark}
      hrefFor={hrefFor}
      extra={<SimulationBarControls access={access} />}
      fills={paper.trades}
      guide={guide.step ?? undefined}
      order={
        <OrderPanel
          info={info}
          locale={locale}
          access={access}
          paper={paper}
          fee={fee}
          market={screen.market}
          picked={screen.picked}
          compact={phone}
          side={screen.side}
          onSideChange={screen.setSide}
        />
      }
      orders={<OrdersPanel symbol={symbol} symbols={symbols} locale={locale} access={access} paper={paper} />}
      phoneActions={<PhoneSideButtons onPick={screen.openForm} />}
    >
      {guide.card}
    </MarketScreen>
  );
}

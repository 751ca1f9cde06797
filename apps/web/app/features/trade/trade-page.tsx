import { useEffect, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { type FeedState, MarketFeedScope } from "../trading-screen/market-screen.tsx";
import type { FeeRates } from "../trading-screen/order-form-state.ts";
import type { PhoneTab } from "../trading-screen/phone-tabs.tsx";
import {
  feeRatesOf,
  type SpotPageProps,
  SpotScreenFrame,
  spotOrderInputs,
  useSpotPage,
} from "../trading-screen/trading-page-frame.tsx";
import { useGuide } from "./guide.tsx";
import { OrderPanel } from "./order-panel.tsx";
import { OrdersPanel } from "./orders-panel.tsx";
import { usePaper } from "./use-paper.ts";

export interface TradePageProps extends SpotPageProps {
  /** `phone` is /trade-spot: the stacked layout at any width. */
  layout: "auto" | "phone";
  /** The document's CSP nonce (the first-visit tour's boot script). */
  nonce: string | undefined;
}

/**
 * The spot screen: ticker bar, chart, book, trades, order forms and the user's orders.
 * Desktop is the classic exchange grid; phones stack the areas behind tabs.
 */
export function TradePage(props: TradePageProps) {
  return <MarketFeedScope render={(feed) => <TradeScreen {...props} feed={feed} />} />;
}

function TradeScreen({ feed, ...page }: TradePageProps & { feed: FeedState }) {
  const { locale, symbol, layout } = page;
  const { t } = useTranslation("trade");
  const { access, screen } = useSpotPage(page, feed, layout);
  const paper = usePaper(access === "ready");
  const { phone, setPhoneTab, info } = screen;
  const guide = useGuide(page.nonce);
  const fee: FeeRates = useMemo(() => feeRatesOf(paper.fees?.current), [paper.fees]);

  useEffect(() => {
    if (guide.step === null || !phone) return;
    const map: Record<string, PhoneTab> = { chart: "chart", book: "book", form: "form" };
    const tab = map[guide.step];
    if (tab) setPhoneTab(tab);
  }, [guide.step, phone, setPhoneTab]);

  if (!info) return null;

  return (
    <SpotScreenFrame
      page={page}
      access={access}
      layout={layout}
      testId="trade-page"
      heading={t("meta.heading", { base: info.base, quote: info.quote })}
      info={info}
      screen={screen}
      fills={paper.trades}
      guide={guide.step ?? undefined}
      order={
        <OrderPanel
          info={info}
          locale={locale}
          access={access}
          paper={paper}
          fee={fee}
          {...spotOrderInputs(screen)}
        />
      }
      orders={
        <OrdersPanel symbol={symbol} symbols={screen.symbols} locale={locale} access={access} paper={paper} />
      }
    >
      {guide.card}
    </SpotScreenFrame>
  );
}

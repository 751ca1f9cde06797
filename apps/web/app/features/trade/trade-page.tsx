import type { OrderSideValue } from "@meridian/contracts";
import { vipTier } from "@meridian/domain";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { EnterSimulationButton } from "../simulation/enter-simulation-button.tsx";
import { useSimulation } from "../simulation/simulation-provider.tsx";
import { useGuide } from "./guide.tsx";
import { KlineChart } from "./kline-chart.tsx";
import { OrderBook } from "./order-book.tsx";
import type { FeeRates } from "./order-form.tsx";
import { OrderPanel, type TradeAccess } from "./order-panel.tsx";
import type { SymbolIndex } from "./order-tables.tsx";
import { OrdersPanel } from "./orders-panel.tsx";
import { type PhoneTab, PhoneTabs } from "./phone-tabs.tsx";
import { RecentTrades } from "./recent-trades.tsx";
import { TickerBar } from "./ticker-bar.tsx";
import { FeedContext, type MarketSnapshot, useFeedLifecycle, useMarket } from "./use-market.ts";
import { usePaper } from "./use-paper.ts";

const PHONE_QUERY = "(max-width: 767px)";

function useIsPhone(forced: boolean): boolean {
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

export interface TradePageProps {
  locale: string;
  symbol: string;
  snapshot: MarketSnapshot;
  /** `phone` is /trade-spot: the stacked layout at any width. */
  layout: "auto" | "phone";
  dark: boolean;
  loggedIn: boolean;
  hrefFor: (symbol: string) => string;
}

/**
 * The spot screen: ticker bar, chart, book, trades, order forms and the user's orders.
 * Desktop is the classic exchange grid; phones stack the areas behind tabs.
 */
export function TradePage(props: TradePageProps) {
  const { feed, status, reconnects } = useFeedLifecycle();
  return (
    <FeedContext.Provider value={feed}>
      <TradeScreen {...props} status={status} reconnects={reconnects} />
    </FeedContext.Provider>
  );
}

function TradeScreen({
  locale,
  symbol,
  snapshot,
  layout,
  dark,
  loggedIn,
  hrefFor,
  status,
  reconnects,
}: TradePageProps & Omit<ReturnType<typeof useFeedLifecycle>, "feed">) {
  const { t } = useTranslation("trade");
  const sim = useSimulation();
  const access: TradeAccess = !loggedIn ? "guest" : sim.active ? "ready" : "needs-sim";
  const paper = usePaper(access === "ready");
  const market = useMarket(symbol, snapshot, status);
  const phone = useIsPhone(layout === "phone");
  const guide = useGuide();
  const [phoneTab, setPhoneTab] = useState<PhoneTab>("chart");
  const [side, setSide] = useState<OrderSideValue>("BUY");
  const [picked, setPicked] = useState<{ price: string; seq: number } | null>(null);

  const symbols: SymbolIndex = useMemo(
    () => Object.fromEntries(snapshot.symbols.map((s) => [s.symbol, s])),
    [snapshot.symbols],
  );
  const info = symbols[symbol];
  const fee: FeeRates = useMemo(() => {
    const tier = paper.fees?.current ?? vipTier(0);
    return { level: tier.level, makerPpm: tier.makerPpm, takerPpm: tier.takerPpm };
  }, [paper.fees]);

  useEffect(() => {
    if (guide.step === null || !phone) return;
    const map: Record<string, PhoneTab> = { chart: "chart", book: "book", form: "form" };
    const tab = map[guide.step];
    if (tab) setPhoneTab(tab);
  }, [guide.step, phone]);

  if (!info) return null;

  const pickPrice = (price: string) => {
    setPicked((prev) => ({ price, seq: (prev?.seq ?? 0) + 1 }));
    if (phone) setPhoneTab("form");
  };
  const openForm = (s: OrderSideValue) => {
    setSide(s);
    setPhoneTab("form");
  };

  const extra =
    access === "ready" ? (
      <>
        <span className="trade-sim-badge" data-testid="simulation-badge">
          {t("bar.simulation")}
        </span>
        <EnterSimulationButton size="small" data-testid="exit-simulation" />
      </>
    ) : access === "needs-sim" ? (
      <EnterSimulationButton type="primary" size="small" data-testid="bar-enter-simulation" />
    ) : null;

  return (
    <div
      className={`trade ${layout === "phone" ? "trade-phone" : "trade-auto"}`}
      data-tab={phoneTab}
      data-guide={guide.step ?? undefined}
      data-testid="trade-page"
    >
      <h1 className="trade-visually-hidden">{t("meta.heading", { base: info.base, quote: info.quote })}</h1>
      <TickerBar
        info={info}
        ticker={market.ticker}
        symbols={snapshot.symbols}
        tickers={market.tickers}
        status={status}
        hrefFor={hrefFor}
        extra={extra}
      />
      <PhoneTabs active={phoneTab} onChange={setPhoneTab} />
      <KlineChart
        symbol={symbol}
        priceDecimals={info.priceDecimals}
        dark={dark}
        fills={paper.trades}
        reconnects={reconnects}
      />
      <OrderBook
        info={info}
        depth={market.depth}
        ticker={market.ticker}
        rows={phone ? 10 : 16}
        onPickPrice={pickPrice}
      />
      <RecentTrades info={info} trades={phone ? market.trades.slice(0, 24) : market.trades} />
      <OrderPanel
        info={info}
        locale={locale}
        access={access}
        paper={paper}
        fee={fee}
        depth={market.depth}
        lastPrice={market.ticker?.lastPrice}
        picked={picked}
        compact={phone}
        side={side}
        onSideChange={setSide}
      />
      <OrdersPanel symbol={symbol} symbols={symbols} locale={locale} access={access} paper={paper} />
      <div className="trade-phone-actions">
        <button type="button" className="trade-submit is-buy" onClick={() => openForm("BUY")}>
          {t("form.buyShort")}
        </button>
        <button type="button" className="trade-submit is-sell" onClick={() => openForm("SELL")}>
          {t("form.sellShort")}
        </button>
      </div>
      {guide.card}
    </div>
  );
}

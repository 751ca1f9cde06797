import type { OrderSideValue } from "@meridian/contracts";
import { vipTier } from "@meridian/domain";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { EnterSimulationButton } from "../simulation/enter-simulation-button.tsx";
import { useSimulation } from "../simulation/simulation-provider.tsx";
import { useGuide } from "./guide.tsx";
import { MarketScreen, useIsPhone } from "./market-screen.tsx";
import type { FeeRates } from "./order-form.tsx";
import { OrderPanel, type TradeAccess } from "./order-panel.tsx";
import type { SymbolIndex } from "./order-tables.tsx";
import { OrdersPanel } from "./orders-panel.tsx";
import { PhoneSideButtons } from "./panel-parts.tsx";
import type { PhoneTab } from "./phone-tabs.tsx";
import { FeedContext, type MarketSnapshot, useFeedLifecycle, useMarket } from "./use-market.ts";
import { usePaper } from "./use-paper.ts";

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
    <MarketScreen
      layout={layout}
      testId="trade-page"
      heading={t("meta.heading", { base: info.base, quote: info.quote })}
      info={info}
      snapshot={snapshot}
      market={market}
      feed={{ status, reconnects }}
      dark={dark}
      phone={phone}
      phoneTab={phoneTab}
      onPhoneTab={setPhoneTab}
      hrefFor={hrefFor}
      extra={extra}
      fills={paper.trades}
      onPickPrice={pickPrice}
      guide={guide.step ?? undefined}
      order={
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
      }
      orders={<OrdersPanel symbol={symbol} symbols={symbols} locale={locale} access={access} paper={paper} />}
      phoneActions={<PhoneSideButtons onPick={openForm} />}
    >
      {guide.card}
    </MarketScreen>
  );
}

import type { MarginAccountModeValue, MarginPairs, OrderSideValue } from "@meridian/contracts";
import { vipTier } from "@meridian/domain";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { EnterSimulationButton } from "../simulation/enter-simulation-button.tsx";
import { useSimulation } from "../simulation/simulation-provider.tsx";
import { paperApi } from "../trade/api.ts";
import { MarketScreen, useIsPhone } from "../trade/market-screen.tsx";
import type { FeeRates } from "../trade/order-form.tsx";
import type { SymbolIndex } from "../trade/order-tables.tsx";
import { PhoneSideButtons, type TradeAccess } from "../trade/panel-parts.tsx";
import type { PhoneTab } from "../trade/phone-tabs.tsx";
import { FeedContext, type MarketSnapshot, useFeedLifecycle, useMarket } from "../trade/use-market.ts";
import { marginPairs } from "./api.ts";
import { MarginOrderPanel } from "./margin-order-panel.tsx";
import { MarginOrdersPanel } from "./margin-tables.tsx";
import { useMargin } from "./use-margin.ts";

export interface MarginPageProps {
  locale: string;
  symbol: string;
  snapshot: MarketSnapshot;
  dark: boolean;
  loggedIn: boolean;
  hrefFor: (symbol: string) => string;
}

/**
 * /trade-margin/:symbol: the spot market (chart, book, trades) with the margin order
 * panel and the margin account's orders. One responsive screen: the phone width stacks
 * the areas behind the PhoneTabs strip.
 */
export function MarginPage(props: MarginPageProps) {
  const { feed, status, reconnects } = useFeedLifecycle();
  return (
    <FeedContext.Provider value={feed}>
      <Screen {...props} feed={{ status, reconnects }} />
    </FeedContext.Provider>
  );
}

function Screen({
  locale,
  symbol,
  snapshot,
  dark,
  loggedIn,
  hrefFor,
  feed,
}: MarginPageProps & { feed: Omit<ReturnType<typeof useFeedLifecycle>, "feed"> }) {
  const { t } = useTranslation("margin");
  const { t: tt } = useTranslation("trade");
  const sim = useSimulation();
  const access: TradeAccess = !loggedIn ? "guest" : sim.active ? "ready" : "needs-sim";
  const [mode, setMode] = useState<MarginAccountModeValue>("cross");
  const [pairs, setPairs] = useState<MarginPairs | null>(null);
  const [fee, setFee] = useState<FeeRates>(() => {
    const tier = vipTier(0);
    return { level: tier.level, makerPpm: tier.makerPpm, takerPpm: tier.takerPpm };
  });
  const market = useMarket(symbol, snapshot, feed.status);
  const phone = useIsPhone(false);
  const [phoneTab, setPhoneTab] = useState<PhoneTab>("chart");
  const [side, setSide] = useState<OrderSideValue>("BUY");
  const [picked, setPicked] = useState<{ price: string; seq: number } | null>(null);
  const symbols: SymbolIndex = useMemo(
    () => Object.fromEntries(snapshot.symbols.map((s) => [s.symbol, s])),
    [snapshot.symbols],
  );
  const info = symbols[symbol];
  const scope = useMemo(() => ({ mode, symbol }), [mode, symbol]);
  const margin = useMargin(access === "ready", scope, info?.base ?? "", info?.quote ?? "");

  useEffect(() => {
    void marginPairs().then(setPairs, () => {});
  }, []);
  useEffect(() => {
    if (access !== "ready") return;
    void paperApi.fees().then(
      ({ current }) =>
        setFee({ level: current.level, makerPpm: current.makerPpm, takerPpm: current.takerPpm }),
      () => {},
    );
  }, [access]);

  if (!info) return null;
  const pair = pairs?.pairs.find((p) => p.symbol === symbol);
  const pickPrice = (price: string) => {
    setPicked((prev) => ({ price, seq: (prev?.seq ?? 0) + 1 }));
    if (phone) setPhoneTab("form");
  };

  const extra =
    access === "ready" ? (
      <>
        <span className="trade-sim-badge" data-testid="simulation-badge">
          {tt("bar.simulation")}
        </span>
        <EnterSimulationButton size="small" data-testid="exit-simulation" />
      </>
    ) : access === "needs-sim" ? (
      <EnterSimulationButton type="primary" size="small" data-testid="bar-enter-simulation" />
    ) : null;

  return (
    <MarketScreen
      className="margin"
      layout="auto"
      testId="margin-page"
      heading={t("heading", { base: info.base, quote: info.quote })}
      info={info}
      snapshot={snapshot}
      market={market}
      feed={feed}
      dark={dark}
      phone={phone}
      phoneTab={phoneTab}
      onPhoneTab={setPhoneTab}
      hrefFor={hrefFor}
      extra={extra}
      fills={margin.trades}
      onPickPrice={pickPrice}
      order={
        <MarginOrderPanel
          info={info}
          locale={locale}
          access={access}
          scope={scope}
          leverage={mode === "cross" ? pair?.crossLeverage : pair?.isolatedLeverage}
          onModeChange={setMode}
          margin={margin}
          fee={fee}
          lastPrice={market.ticker?.lastPrice}
          picked={picked}
          compact={phone}
          side={side}
          onSideChange={setSide}
        />
      }
      orders={<MarginOrdersPanel symbols={symbols} locale={locale} access={access} margin={margin} />}
      phoneActions={
        <PhoneSideButtons
          onPick={(s) => {
            setSide(s);
            setPhoneTab("form");
          }}
        />
      }
    />
  );
}

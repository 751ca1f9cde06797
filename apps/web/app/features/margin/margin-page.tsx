import type { MarginAccountModeValue, MarginPairs } from "@meridian/contracts";
import { vipTier } from "@meridian/domain";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { paperApi } from "../trade/api.ts";
import {
  type FeedState,
  MarketFeedScope,
  MarketScreen,
  type TradingScreenProps,
  useMarketScreen,
} from "../trade/market-screen.tsx";
import type { FeeRates } from "../trade/order-form.tsx";
import { PhoneSideButtons, SimulationBarControls, useTradeAccess } from "../trade/panel-parts.tsx";
import { marginPairs } from "./api.ts";
import { MarginOrderPanel } from "./margin-order-panel.tsx";
import { MarginOrdersPanel } from "./margin-tables.tsx";
import { useMargin } from "./use-margin.ts";

export interface MarginPageProps extends TradingScreenProps {
  hrefFor: (symbol: string) => string;
}

/**
 * /trade-margin/:symbol: the spot market (chart, book, trades) with the margin order
 * panel and the margin account's orders. One responsive screen: the phone width stacks
 * the areas behind the PhoneTabs strip.
 */
export function MarginPage(props: MarginPageProps) {
  return <MarketFeedScope render={(feed) => <Screen {...props} feed={feed} />} />;
}

function Screen({
  locale,
  symbol,
  snapshot,
  dark,
  loggedIn,
  hrefFor,
  feed,
}: MarginPageProps & { feed: FeedState }) {
  const { t } = useTranslation("margin");
  const access = useTradeAccess(loggedIn);
  const [mode, setMode] = useState<MarginAccountModeValue>("cross");
  const [pairs, setPairs] = useState<MarginPairs | null>(null);
  const [fee, setFee] = useState<FeeRates>(() => {
    const tier = vipTier(0);
    return { level: tier.level, makerPpm: tier.makerPpm, takerPpm: tier.takerPpm };
  });
  const screen = useMarketScreen(symbol, snapshot, feed, "auto");
  const { phone, symbols, info } = screen;
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

  return (
    <MarketScreen
      className="margin"
      layout="auto"
      testId="margin-page"
      heading={t("heading", { base: info.base, quote: info.quote })}
      info={info}
      snapshot={snapshot}
      screen={screen}
      dark={dark}
      hrefFor={hrefFor}
      extra={<SimulationBarControls access={access} />}
      fills={margin.trades}
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
          lastPrice={screen.market.ticker?.lastPrice}
          picked={screen.picked}
          compact={phone}
          side={screen.side}
          onSideChange={screen.setSide}
        />
      }
      orders={<MarginOrdersPanel symbols={symbols} locale={locale} access={access} margin={margin} />}
      phoneActions={<PhoneSideButtons onPick={screen.openForm} />}
    />
  );
}

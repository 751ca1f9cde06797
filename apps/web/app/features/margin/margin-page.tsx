import type { MarginAccountModeValue } from "@meridian/contracts";
import { vipTier } from "@meridian/domain";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { marginPairs } from "../../api/margin.ts";
import { paperApi } from "../../api/paper.ts";
import { firstError, useApiData } from "../../lib/use-api-data.ts";
import { LoadError } from "../shell/load-error.tsx";
import {
  type FeedState,
  MarketFeedScope,
  MarketScreen,
  type TradingScreenProps,
  useMarketScreen,
} from "../trading-screen/market-screen.tsx";
import type { FeeRates } from "../trading-screen/order-form-state.ts";
import { PhoneSideButtons, SimulationBarControls, useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { MarginOrderPanel } from "./margin-order-panel.tsx";
import { MarginOrdersPanel } from "./margin-tables.tsx";
import { useMargin } from "./use-margin.ts";

const BASE_TIER = vipTier(0);
const BASE_FEE: FeeRates = {
  level: BASE_TIER.level,
  makerPpm: BASE_TIER.makerPpm,
  takerPpm: BASE_TIER.takerPpm,
};
const loadFees = (): Promise<FeeRates> =>
  paperApi.fees().then(({ current }) => ({
    level: current.level,
    makerPpm: current.makerPpm,
    takerPpm: current.takerPpm,
  }));

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
  const pairs = useApiData(marginPairs);
  const fees = useApiData(loadFees, access === "ready");
  const fee = fees.data ?? BASE_FEE;
  const screen = useMarketScreen(symbol, snapshot, feed, "auto");
  const { phone, symbols, info } = screen;
  const scope = useMemo(() => ({ mode, symbol }), [mode, symbol]);
  const margin = useMargin(access === "ready", scope, info?.base ?? "", info?.quote ?? "");

  if (!info) return null;
  const pair = pairs.data?.pairs.find((p) => p.symbol === symbol);

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
      extra={
        <>
          <SimulationBarControls access={access} />
          <LoadError
            error={firstError(margin, pairs, fees)}
            onRetry={() => {
              margin.refresh();
              void pairs.reload();
              void fees.reload();
            }}
          />
        </>
      }
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
          market={screen.market}
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

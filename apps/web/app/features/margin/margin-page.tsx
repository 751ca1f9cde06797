import type { MarginAccountModeValue } from "@meridian/contracts";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { marginPairs } from "../../api/margin.ts";
import { paperApi } from "../../api/paper.ts";
import { firstError, useApiData } from "../../lib/use-api-data.ts";
import { LoadError } from "../shell/load-error.tsx";
import { type FeedState, MarketFeedScope } from "../trading-screen/market-screen.tsx";
import type { FeeRates } from "../trading-screen/order-form-state.ts";
import {
  feeRatesOf,
  type SpotPageProps,
  SpotScreenFrame,
  spotOrderInputs,
  useSpotPage,
} from "../trading-screen/trading-page-frame.tsx";
import { MarginOrderPanel } from "./margin-order-panel.tsx";
import { MarginOrdersPanel } from "./margin-tables.tsx";
import { useMargin } from "./use-margin.ts";

const loadFees = (): Promise<FeeRates> => paperApi.fees().then(({ current }) => feeRatesOf(current));

export type MarginPageProps = SpotPageProps;

/**
 * /trade-margin/:symbol: the spot market (chart, book, trades) with the margin order
 * panel and the margin account's orders. One responsive screen: the phone width stacks
 * the areas behind the PhoneTabs strip.
 */
export function MarginPage(props: MarginPageProps) {
  return <MarketFeedScope render={(feed) => <Screen {...props} feed={feed} />} />;
}

function Screen({ feed, ...page }: MarginPageProps & { feed: FeedState }) {
  const { locale, symbol } = page;
  const { t } = useTranslation("margin");
  const { access, screen } = useSpotPage(page, feed, "auto");
  const [mode, setMode] = useState<MarginAccountModeValue>("cross");
  const pairs = useApiData(marginPairs);
  const fees = useApiData(loadFees, access === "ready");
  const fee = fees.data ?? feeRatesOf(undefined);
  const { info } = screen;
  const scope = useMemo(() => ({ mode, symbol }), [mode, symbol]);
  const margin = useMargin(access === "ready", scope, info?.base ?? "", info?.quote ?? "");

  if (!info) return null;
  const pair = pairs.data?.pairs.find((p) => p.symbol === symbol);

  return (
    <SpotScreenFrame
      page={page}
      access={access}
      className="margin"
      layout="auto"
      testId="margin-page"
      heading={t("heading", { base: info.base, quote: info.quote })}
      info={info}
      screen={screen}
      extra={
        <LoadError
          error={firstError(margin, pairs, fees)}
          onRetry={() => {
            margin.refresh();
            void pairs.reload();
            void fees.reload();
          }}
        />
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
          {...spotOrderInputs(screen)}
        />
      }
      orders={<MarginOrdersPanel symbols={screen.symbols} locale={locale} access={access} margin={margin} />}
    />
  );
}

import type { PaperTrade } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { firstError, useApiData } from "../../lib/use-api-data.ts";
import { LoadError } from "../shell/load-error.tsx";
import { antdIsland } from "../trading-screen/antd-island.tsx";
import {
  type FeedState,
  MarketFeedScope,
  MarketScreen,
  type TradingScreenProps,
  useMarketScreen,
} from "../trading-screen/market-screen.tsx";
import { SimulationBarControls, useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { AccountTables } from "./account-tables.tsx";
import { futuresApi } from "./api.ts";
import { FuturesOrderPanel } from "./futures-form.tsx";
import { MarkStats } from "./mark-stats.tsx";
import { useFutures } from "./use-futures.ts";

/** The user's futures fills in the shape the chart draws as markers. */
const loadChartFills = (): Promise<PaperTrade[]> =>
  futuresApi.trades().then((list) =>
    list.map((x) => ({
      tradeId: x.id,
      orderId: x.orderId,
      symbol: x.symbol,
      side: x.side,
      price: x.price,
      qty: x.quantity,
      quoteQty: "",
      fee: x.fee,
      feeAsset: "USDT",
      isMaker: x.maker,
      time: x.time,
    })),
  );

const NO_FILLS: PaperTrade[] = [];

/** The risk agreement (an antd dialog), fetched for a logged-in user only. */
const FuturesRiskAgreement = antdIsland(() =>
  import("./risk-agreement.tsx").then((m) => m.FuturesRiskAgreement),
);

export interface FuturesPageProps extends TradingScreenProps {
  /** `phone` is /trade-swap: the stacked layout behind tabs at any width. */
  layout: "auto" | "phone";
}

/**
 * USDT-M perpetual screen on the spot screen's grid (trade.css): ticker and mark bar,
 * chart, book, trades, the order panel with the futures wallet, and the account tables.
 */
export function FuturesPage(props: FuturesPageProps) {
  return (
    <>
      {props.loggedIn ? <FuturesRiskAgreement locale={props.locale} loggedIn /> : null}
      <MarketFeedScope render={(feed) => <Screen {...props} feed={feed} />} />
    </>
  );
}

function Screen({
  locale,
  symbol,
  snapshot,
  dark,
  loggedIn,
  layout,
  feed,
}: FuturesPageProps & { feed: FeedState }) {
  const { t } = useTranslation("futures");
  const access = useTradeAccess(loggedIn);
  const fut = useFutures(access === "ready");
  const screen = useMarketScreen(symbol, snapshot, feed, layout);
  // Re-read after each push.
  const fills = useApiData(loadChartFills, access === "ready", fut.version);
  const hedge = fut.account?.dualSidePosition ?? false;
  const { info } = screen;
  if (!info) return null;

  const hrefFor = (s: string) =>
    layout === "phone"
      ? `${localizePath(locale, "/trade-swap")}?symbol=${s}`
      : localizePath(locale, `/futures/usdt/${s}`);

  return (
    <MarketScreen
      className="futures"
      layout={layout}
      testId="futures-page"
      heading={t("title", { symbol })}
      subtitle={t("perpetual")}
      info={info}
      snapshot={snapshot}
      screen={screen}
      dark={dark}
      hrefFor={hrefFor}
      extra={
        <>
          <MarkStats marks={fut.liveMarks} symbol={symbol} priceDecimals={info.priceDecimals} />
          <SimulationBarControls access={access} />
          <LoadError
            error={firstError(fut, fills)}
            onRetry={() => {
              fut.refresh();
              void fills.reload();
            }}
          />
        </>
      }
      fills={fills.data ?? NO_FILLS}
      order={
        <FuturesOrderPanel
          locale={locale}
          info={info}
          access={access}
          account={fut.account}
          marks={fut.liveMarks}
          picked={screen.picked}
          onChanged={fut.refresh}
        />
      }
      orders={<AccountTables symbol={symbol} access={access} fut={fut} info={info} />}
      phoneActionsTestId="futures-phone-actions"
      phoneActions={
        // Hedge mode opens a long or a short (Binance's words there); one-way buys or sells.
        <>
          <button type="button" className="trade-submit is-buy" onClick={() => screen.openForm()}>
            {t(hedge ? "hedge.openLong" : "openLong")}
          </button>
          <button type="button" className="trade-submit is-sell" onClick={() => screen.openForm()}>
            {t(hedge ? "hedge.openShort" : "openShort")}
          </button>
        </>
      }
    />
  );
}

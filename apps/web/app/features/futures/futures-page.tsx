import type { PaperTrade } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { type CoinPerpContract, coinPerpContract } from "@meridian/domain";
import { useCallback, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
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
import {
  coinContractOfMarket,
  coinMarketOf,
  coinOrderInfo,
  familyPath,
  type MarginFamily,
} from "./families.ts";
import { FamilySwitch } from "./family-switch.tsx";
import { FuturesOrderPanel } from "./futures-form.tsx";
import { MarkStats } from "./mark-stats.tsx";
import { USDT_SCOPE, useFutures } from "./use-futures.ts";

/**
 * The user's fills of one family in the shape the chart draws as markers; a coin-M fill
 * is drawn on its spot market's chart (BTCUSD on BTCUSDT).
 */
const loadChartFills = (coin: CoinPerpContract | undefined): Promise<PaperTrade[]> =>
  futuresApi.trades(coin ? "coin" : "usdt").then((list) =>
    list
      .filter((x) => x.family === (coin ? "coin" : "usdt"))
      .map((x) => ({
        tradeId: x.id,
        orderId: x.orderId,
        symbol: coin && x.symbol === coin.symbol ? coinMarketOf(coin) : x.symbol,
        side: x.side,
        price: x.price,
        qty: x.quantity,
        quoteQty: "",
        fee: x.fee,
        feeAsset: x.marginCoin,
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
  /** USDT-M (`/futures/usdt/:symbol`, the default) or coin-M (`/futures/coin/:symbol`). */
  family?: MarginFamily;
}

/**
 * A perpetual's screen on the spot screen's grid (trade.css): ticker and mark bar with the
 * USDT-M | COIN-M switch, chart, book, trades, the order panel with the futures wallet,
 * and the account tables. A coin-M contract (BTCUSD) shows its coin's spot market
 * (BTCUSDT, in USD) above, and its own orders, contracts and coin wallet below.
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
  family = "usdt",
}: FuturesPageProps & { feed: FeedState }) {
  const { t } = useTranslation("futures");
  const access = useTradeAccess(loggedIn);
  const coin = family === "coin" ? coinPerpContract(symbol) : undefined;
  const scope = useMemo(
    () => (coin ? { family: "coin" as const, marginCoin: coin.marginAsset } : USDT_SCOPE),
    [coin],
  );
  const fut = useFutures(access === "ready", scope);
  const screen = useMarketScreen(coin ? coinMarketOf(coin) : symbol, snapshot, feed, layout);
  const loadFills = useCallback(() => loadChartFills(coin), [coin]);
  // Re-read after each push.
  const fills = useApiData(loadFills, access === "ready", fut.version);
  const hedge = fut.account?.dualSidePosition ?? false;
  const { info } = screen;
  if (!info) return null;
  // The order panel trades the contract itself: BTCUSD, its tick, whole contracts.
  const orderInfo = coin ? coinOrderInfo(coin, info) : info;

  const hrefFor = (s: string) =>
    coin
      ? localizePath(locale, familyPath("coin", coinContractOfMarket(s)?.base ?? coin.base))
      : layout === "phone"
        ? `${localizePath(locale, "/trade-swap")}?symbol=${s}`
        : localizePath(locale, `/futures/usdt/${s}`);

  return (
    <MarketScreen
      className="futures"
      layout={layout}
      testId="futures-page"
      heading={t("title", { symbol })}
      subtitle={coin ? t("coin.perpetual") : t("perpetual")}
      info={info}
      marketless={coin !== undefined && !snapshot.tickers.some((x) => x.symbol === info.symbol)}
      snapshot={snapshot}
      screen={screen}
      dark={dark}
      hrefFor={hrefFor}
      extra={
        <>
          {layout === "phone" ? null : <FamilySwitch locale={locale} family={family} base={info.base} />}
          <MarkStats marks={fut.liveMarks} symbol={symbol} priceDecimals={orderInfo.priceDecimals} />
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
          info={orderInfo}
          coin={coin}
          access={access}
          account={fut.account}
          marks={fut.liveMarks}
          picked={screen.picked}
          onChanged={fut.refresh}
        />
      }
      orders={<AccountTables symbol={symbol} access={access} fut={fut} info={orderInfo} />}
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

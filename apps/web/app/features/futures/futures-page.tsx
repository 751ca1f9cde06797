import type { PaperTrade } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { EnterSimulationButton } from "../simulation/enter-simulation-button.tsx";
import { useSimulation } from "../simulation/simulation-provider.tsx";
import { KlineChart } from "../trade/kline-chart.tsx";
import { OrderBook } from "../trade/order-book.tsx";
import type { TradeAccess } from "../trade/order-panel.tsx";
import { type PhoneTab, PhoneTabs } from "../trade/phone-tabs.tsx";
import { RecentTrades } from "../trade/recent-trades.tsx";
import { TickerBar } from "../trade/ticker-bar.tsx";
import { FeedContext, type MarketSnapshot, useFeedLifecycle, useMarket } from "../trade/use-market.ts";
import { AccountTables } from "./account-tables.tsx";
import { futuresApi } from "./api.ts";
import { FuturesOrderPanel } from "./futures-form.tsx";
import { MarkStats } from "./mark-stats.tsx";
import { useFutures } from "./use-futures.ts";

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

/** The user's futures fills in the shape the chart draws as markers (re-read after each push). */
function useChartFills(enabled: boolean, version: number): PaperTrade[] {
  const [fills, setFills] = useState<PaperTrade[]>([]);
  useEffect(() => {
    if (!enabled || version < 0) return;
    void futuresApi.trades().then(
      (list) =>
        setFills(
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
        ),
      () => {},
    );
  }, [enabled, version]);
  return fills;
}

export interface FuturesPageProps {
  locale: string;
  symbol: string;
  snapshot: MarketSnapshot;
  dark: boolean;
  loggedIn: boolean;
  /** `phone` is /trade-swap: the stacked layout behind tabs at any width. */
  layout: "auto" | "phone";
}

/**
 * USDT-M perpetual screen on the spot screen's grid (trade.css): ticker and mark bar,
 * chart, book, trades, the order panel with the futures wallet, and the account tables.
 */
export function FuturesPage(props: FuturesPageProps) {
  const { feed, status, reconnects } = useFeedLifecycle();
  return (
    <FeedContext.Provider value={feed}>
      <Screen {...props} status={status} reconnects={reconnects} />
    </FeedContext.Provider>
  );
}

function Screen({
  locale,
  symbol,
  snapshot,
  dark,
  loggedIn,
  layout,
  status,
  reconnects,
}: FuturesPageProps & { status: ReturnType<typeof useFeedLifecycle>["status"]; reconnects: number }) {
  const { t } = useTranslation("futures");
  const { t: tt } = useTranslation("trade");
  const sim = useSimulation();
  const access: TradeAccess = !loggedIn ? "guest" : sim.active ? "ready" : "needs-sim";
  const fut = useFutures(access === "ready");
  const market = useMarket(symbol, snapshot, status);
  const phone = useIsPhone(layout === "phone");
  const [phoneTab, setPhoneTab] = useState<PhoneTab>("chart");
  const [picked, setPicked] = useState<{ price: string; seq: number } | null>(null);
  const fills = useChartFills(access === "ready", fut.version);
  const hedge = fut.account?.dualSidePosition ?? false;
  const info = snapshot.symbols.find((s) => s.symbol === symbol);
  if (!info) return null;

  const hrefFor = (s: string) =>
    layout === "phone"
      ? `${localizePath(locale, "/trade-swap")}?symbol=${s}`
      : localizePath(locale, `/futures/usdt/${s}`);
  const pickPrice = (price: string) => {
    setPicked((prev) => ({ price, seq: (prev?.seq ?? 0) + 1 }));
    if (phone) setPhoneTab("form");
  };

  const extra = (
    <>
      <MarkStats mark={fut.marks[symbol]} priceDecimals={info.priceDecimals} />
      {access === "ready" ? (
        <>
          <span className="trade-sim-badge" data-testid="simulation-badge">
            {tt("bar.simulation")}
          </span>
          <EnterSimulationButton size="small" market="futures" data-testid="exit-simulation" />
        </>
      ) : access === "needs-sim" ? (
        <EnterSimulationButton
          type="primary"
          size="small"
          market="futures"
          data-testid="bar-enter-simulation"
        />
      ) : null}
    </>
  );

  return (
    <div
      className={`trade futures ${layout === "phone" ? "trade-phone" : "trade-auto"}`}
      data-tab={phoneTab}
      data-testid="futures-page"
    >
      <h1 className="trade-visually-hidden">{t("title", { symbol })}</h1>
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
        fills={fills}
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
      <FuturesOrderPanel
        locale={locale}
        info={info}
        access={access}
        account={fut.account}
        mark={fut.marks[symbol]}
        picked={picked}
        onChanged={fut.refresh}
      />
      <AccountTables symbol={symbol} access={access} fut={fut} info={info} />
      <div className="trade-phone-actions" data-testid="futures-phone-actions">
        {/* Hedge mode opens a long or a short (Binance's words there); one-way buys or sells. */}
        <button type="button" className="trade-submit is-buy" onClick={() => setPhoneTab("form")}>
          {t(hedge ? "hedge.openLong" : "openLong")}
        </button>
        <button type="button" className="trade-submit is-sell" onClick={() => setPhoneTab("form")}>
          {t(hedge ? "hedge.openShort" : "openShort")}
        </button>
      </div>
    </div>
  );
}

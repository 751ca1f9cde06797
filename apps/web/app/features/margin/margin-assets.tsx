import type { MarginAccountView } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { type MarginScope, marginApi } from "../../api/margin.ts";
import { firstError, useApiData } from "../../lib/use-api-data.ts";
import { Loading } from "../../ui/loading.tsx";
import { LoadError } from "../shell/load-error.tsx";
import { AccountGate } from "../trading-screen/account-gate.tsx";
import { useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { WalletTransferButton } from "../trading-screen/wallet-transfer.tsx";
import { BorrowRepayButton } from "./borrow-repay.tsx";
import { MarginLevel, MarginTotals } from "./margin-level.tsx";
import { MarginAssetsTable } from "./margin-tables.tsx";
import { useMargin } from "./use-margin.ts";

/** One account's card: level, totals, borrow / repay / transfer, trade link and its assets. */
function AccountCard({
  account,
  locale,
  onChanged,
}: {
  account: MarginAccountView;
  locale: string;
  onChanged: () => void;
}) {
  const { t } = useTranslation("margin");
  const symbol = account.symbol ?? "BTCUSDT";
  const scope: MarginScope = { mode: account.mode, symbol: account.symbol ?? undefined };
  const assets =
    account.mode === "cross"
      ? [...new Set(["USDT", ...account.assets.map((a) => a.asset)])]
      : account.assets.map((a) => a.asset);
  const id = account.mode === "cross" ? "cross" : `isolated-${symbol}`;
  return (
    <section className="assets-card margin-asset-card" data-testid={`margin-card-${id}`}>
      <header className="margin-asset-head">
        <h2>
          {account.mode === "cross" ? t("cross") : `${t("isolated")} · ${symbol}`}{" "}
          <span className="trade-fee-badge">
            <bdi dir="ltr">{account.leverage}x</bdi>
          </span>
        </h2>
        <div className="margin-actions">
          <BorrowRepayButton
            action="borrow"
            scope={scope}
            account={account}
            assets={assets}
            onDone={onChanged}
            primary
            size="middle"
          />
          <BorrowRepayButton
            action="repay"
            scope={scope}
            account={account}
            assets={assets}
            onDone={onChanged}
            size="middle"
          />
          <WalletTransferButton
            from="SPOT"
            to={account.mode === "cross" ? "CROSS_MARGIN" : "ISOLATED_MARGIN"}
            symbol={symbol}
            onDone={onChanged}
            size="middle"
            testId={`margin-transfer-${id}`}
          />
          <a className="assets-button" href={localizePath(locale, `/trade-margin/${symbol}`)}>
            {t("links.trade")}
          </a>
        </div>
      </header>
      <div className="margin-asset-summary">
        <MarginLevel account={account} />
        <MarginTotals account={account} />
      </div>
      <MarginAssetsTable assets={account.assets} testId={`margin-assets-${id}`} />
    </section>
  );
}

const CROSS: MarginScope = { mode: "cross" };

/** /asset/margin: the cross account and every isolated account, with their actions. */
export function MarginAssetsPage({ locale, loggedIn }: { locale: string; loggedIn: boolean }) {
  const { t } = useTranslation("margin");
  const access = useTradeAccess(loggedIn);
  const isolated = useApiData(marginApi.isolated, access === "ready");
  const { update: updateIsolated, reload: reloadIsolated } = isolated;
  // Pushes for isolated accounts replace their card's view; the cross one is the hook's own.
  const onOther = useCallback(
    (view: MarginAccountView) =>
      updateIsolated((list) =>
        list.map((a) => (a.symbol === view.symbol && view.mode === "isolated" ? view : a)),
      ),
    [updateIsolated],
  );
  const cross = useMargin(access === "ready", CROSS, "BTC", "USDT", onOther);
  const changed = () => {
    cross.refresh();
    void reloadIsolated();
  };
  const isolatedList = isolated.data ?? [];

  return (
    <div className="assets" data-testid="asset-margin">
      <div className="assets-inner">
        <h1>{t("assetsPage.title")}</h1>
        {access === "ready" ? <LoadError error={firstError(cross, isolated)} onRetry={changed} /> : null}
        {access !== "ready" ? (
          <AccountGate access={access} locale={locale} />
        ) : (
          <>
            <div className="assets-actions margin-page-links">
              <a className="assets-button" href={localizePath(locale, "/order/marginOrderInfo")}>
                {t("links.orders")}
              </a>
              <a className="assets-button" href={localizePath(locale, "/record/margin")}>
                {t("links.records")}
              </a>
            </div>
            {cross.account ? (
              <AccountCard account={cross.account} locale={locale} onChanged={changed} />
            ) : (
              <div className="assets-card">
                {cross.ready ? <p>{t("assetsPage.loadFailed")}</p> : <Loading />}
              </div>
            )}
            <h2>{t("assetsPage.isolated")}</h2>
            {!isolated.settled ? <Loading /> : null}
            {isolated.settled && isolatedList.length === 0 ? <p>{t("assetsPage.noIsolated")}</p> : null}
            {isolatedList.map((a) => (
              <AccountCard key={a.symbol} account={a} locale={locale} onChanged={changed} />
            ))}
          </>
        )}
      </div>
    </div>
  );
}

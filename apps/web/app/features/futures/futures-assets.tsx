import { localizePath } from "@meridian/contracts/locales";
import { formatDecimal } from "@meridian/domain";
import { useTranslation } from "react-i18next";
import { AccountGate } from "../assets/account-gate.tsx";
import { LoadError } from "../shell/load-error.tsx";
import { useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { TransferButton } from "./transfer-modal.tsx";
import { useFutures } from "./use-futures.ts";

/** /asset/futures: the paper futures wallet (balances, margin, positions) and its transfer to and from spot. */
export function FuturesAssetsPage({ locale, loggedIn }: { locale: string; loggedIn: boolean }) {
  const { t } = useTranslation("futures");
  const access = useTradeAccess(loggedIn);
  const fut = useFutures(access === "ready");
  const account = fut.account;
  const usdt = (v: string) => `${formatDecimal(v, 2)} USDT`;
  return (
    <div className="assets" data-testid="asset-futures">
      <div className="assets-inner">
        <h1>{t("assets.heading")}</h1>
        <LoadError error={fut.error} onRetry={fut.refresh} />
        {access !== "ready" ? (
          <AccountGate access={access} locale={locale} />
        ) : (
          <>
            <section className="assets-card">
              <div className="assets-estimate">
                <span>{t("assets.marginBalance")}</span>
                <strong data-testid="futures-margin-balance">
                  <bdi dir="ltr">{account ? usdt(account.marginBalance) : "--"}</bdi>
                </strong>
              </div>
              <div className="assets-actions">
                <TransferButton account={account} onDone={fut.refresh} primary />
                <a className="assets-button" href={localizePath(locale, "/futures/usdt/BTCUSDT")}>
                  {t("assets.trade")}
                </a>
              </div>
            </section>
            {account ? (
              <dl className="futures-asset-list" data-testid="futures-account">
                {(
                  [
                    ["wallet", t("wallet"), account.wallet],
                    ["available", t("available"), account.available],
                    ["upnl", t("unrealisedPnl"), account.unrealisedPnl],
                    ["maintenance", t("assets.maintenanceMargin"), account.maintenanceMargin],
                    ["isolated", t("assets.isolatedMargin"), account.isolatedMargin],
                    ["transferable", t("assets.maxTransferOut"), account.maxTransferOut],
                  ] as const
                ).map(([key, label, value]) => (
                  <div key={key}>
                    <dt>{label}</dt>
                    <dd data-testid={`futures-${key}`}>
                      <bdi dir="ltr">{usdt(value)}</bdi>
                    </dd>
                  </div>
                ))}
              </dl>
            ) : null}
            <h2>{t("positions")}</h2>
            {fut.positions.length === 0 ? (
              <p>{t("assets.noPositions")}</p>
            ) : (
              <div className="assets-table-wrap">
                <table className="assets-table">
                  <thead>
                    <tr>
                      <th>{t("symbol")}</th>
                      <th>{t("size")}</th>
                      <th>{t("entryPrice")}</th>
                      <th>{t("margin")}</th>
                      <th>{t("pnl")}</th>
                    </tr>
                  </thead>
                  <tbody>
                    {fut.positions.map((p) => (
                      <tr key={`${p.symbol}:${p.positionSide}`}>
                        <td>
                          <a href={localizePath(locale, `/futures/usdt/${p.symbol}`)}>{p.symbol}</a>{" "}
                          {p.leverage}x {t(p.marginMode)}
                        </td>
                        <td dir="ltr">{p.quantity}</td>
                        <td dir="ltr">{p.entryPrice}</td>
                        <td dir="ltr">{formatDecimal(p.margin, 2)}</td>
                        <td dir="ltr">
                          {formatDecimal(p.unrealisedPnl, 2)} ({p.roe}%)
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
          </>
        )}
      </div>
    </div>
  );
}

import type { FuturesAccount } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { formatDecimal } from "@meridian/domain";
import { useCallback } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { useApiData } from "../../lib/use-api-data.ts";
import { Loading } from "../../ui/loading.tsx";
import { LoadError } from "../shell/load-error.tsx";
import { AccountGate } from "../trading-screen/account-gate.tsx";
import { antdIsland } from "../trading-screen/antd-island.tsx";
import { contractFormat, marginAmount } from "../trading-screen/contract-format.ts";
import { useTradeAccess } from "../trading-screen/panel-parts.tsx";
import { TransferButton } from "./transfer-modal.tsx";
import { useFutures } from "./use-futures.ts";

const CoinTransferButton = antdIsland(() => import("./coin-transfer.tsx").then((m) => m.CoinTransferButton));

/** /asset/futures: the paper futures wallet (balances, margin, positions) and its transfer to and from spot. */
export function FuturesAssetsPage({ locale, loggedIn }: { locale: string; loggedIn: boolean }) {
  const { t } = useTranslation("futures");
  const access = useTradeAccess(loggedIn);
  const fut = useFutures(access === "ready");
  const account = fut.account;
  const usdt = (v: string) => `${formatDecimal(v, 2)} USDT`;
  const format = contractFormat(fut.marks);
  const loadCoinWallets = useCallback(() => futuresApi.wallets("coin"), []);
  const coinWallets = useApiData(loadCoinWallets, access === "ready", fut.version);
  return (
    <div className="assets" data-testid="asset-futures">
      <div className="assets-inner">
        <h1>{t("assets.heading")}</h1>
        <LoadError error={fut.error ?? coinWallets.error} onRetry={fut.refresh} />
        {access !== "ready" ? (
          <AccountGate access={access} locale={locale} />
        ) : (
          <>
            <section className="assets-card">
              <div className="assets-estimate">
                <span>{t("assets.marginBalance")}</span>
                <strong data-testid="futures-margin-balance">
                  {account ? (
                    <bdi dir="ltr">{usdt(account.marginBalance)}</bdi>
                  ) : fut.error === null ? (
                    <Loading lines={1} inline />
                  ) : (
                    "--"
                  )}
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
            <h2>{t("coin.wallets")}</h2>
            <CoinWallets
              wallets={coinWallets.data ?? []}
              locale={locale}
              onChanged={() => {
                fut.refresh();
                void coinWallets.reload();
              }}
            />
            <h2>{t("positions")}</h2>
            {fut.listsLoading && fut.error === null ? (
              <Loading />
            ) : fut.positions.length === 0 ? (
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
                        <td dir="ltr">{format.qty(p.symbol, p.quantity)}</td>
                        <td dir="ltr">{format.price(p.symbol, p.entryPrice)}</td>
                        <td dir="ltr">{format.usdt(p.margin)}</td>
                        <td dir="ltr">
                          {format.usdt(p.unrealisedPnl)} ({formatDecimal(p.roe, 2)}%)
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

/** The coin-M wallets (one per coin, amounts in the coin) with each one's transfer and contract. */
function CoinWallets({
  wallets,
  locale,
  onChanged,
}: {
  wallets: readonly FuturesAccount[];
  locale: string;
  onChanged: () => void;
}) {
  const { t } = useTranslation("futures");
  const amount = (a: FuturesAccount, v: string) => <bdi dir="ltr">{marginAmount(a.marginCoin, v)}</bdi>;
  return (
    <div className="assets-table-wrap">
      <table className="assets-table" data-testid="coin-wallets">
        <thead>
          <tr>
            <th>{t("assets.coin")}</th>
            <th>{t("wallet")}</th>
            <th>{t("unrealisedPnl")}</th>
            <th>{t("assets.marginBalance")}</th>
            <th>{t("assets.maxTransferOut")}</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {wallets.map((a) => (
            <tr key={a.marginCoin} data-coin={a.marginCoin}>
              <td>
                <a href={localizePath(locale, `/futures/coin/${a.marginCoin}USD`)}>{a.marginCoin}</a>
              </td>
              <td data-testid="coin-wallet-balance">{amount(a, a.wallet)}</td>
              <td>{amount(a, a.unrealisedPnl)}</td>
              <td>{amount(a, a.marginBalance)}</td>
              <td>{amount(a, a.maxTransferOut)}</td>
              <td>
                <CoinTransferButton
                  coin={a.marginCoin}
                  account={a}
                  onDone={onChanged}
                  testId={`coin-transfer-open-${a.marginCoin}`}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

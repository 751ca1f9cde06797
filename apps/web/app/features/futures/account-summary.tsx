import type { FuturesAccount } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { antdIsland } from "../trading-screen/antd-island.tsx";
import { marginAmount } from "../trading-screen/contract-format.ts";

const TransferButton = antdIsland(() => import("./transfer-modal.tsx").then((m) => m.TransferButton));
const CoinTransferButton = antdIsland(() => import("./coin-transfer.tsx").then((m) => m.CoinTransferButton));

/**
 * The futures wallet under the order form: balance, available, PnL, margin ratio and the
 * transfer, in the wallet's asset (USDT in cents, a coin-M wallet's coin at its decimals).
 */
export function AccountSummary({ account, onChanged }: { account: FuturesAccount; onChanged: () => void }) {
  const { t } = useTranslation("futures");
  const coin = account.family === "coin" ? account.marginCoin : null;
  const money = (v: string) => `${marginAmount(account.marginCoin, v)} ${account.marginCoin}`;
  const row = (label: string, value: string, testId: string) => (
    <>
      <dt>{label}</dt>
      <dd data-testid={testId}>
        <bdi dir="ltr">{value}</bdi>
      </dd>
    </>
  );
  return (
    <div className="futures-account">
      <header className="futures-account-head">
        <h2>{coin ? t("coin.account", { coin }) : t("account")}</h2>
        {coin ? (
          <CoinTransferButton coin={coin} account={account} onDone={onChanged} />
        ) : (
          <TransferButton account={account} onDone={onChanged} />
        )}
      </header>
      <dl data-testid="futures-account">
        {row(t("wallet"), money(account.wallet), "futures-wallet")}
        {row(t("available"), money(account.available), "futures-available")}
        {row(t("unrealisedPnl"), money(account.unrealisedPnl), "futures-upnl")}
        {row(
          t("marginRatio"),
          account.marginRatio === null ? "--" : `${account.marginRatio}%`,
          "futures-ratio",
        )}
      </dl>
    </div>
  );
}

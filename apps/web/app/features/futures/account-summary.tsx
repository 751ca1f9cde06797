import type { FuturesAccount } from "@meridian/contracts";
import { formatDecimal } from "@meridian/domain";
import { useTranslation } from "react-i18next";
import { antdIsland } from "../trading-screen/antd-island.tsx";

const TransferButton = antdIsland(() => import("./transfer-modal.tsx").then((m) => m.TransferButton));

/** The futures wallet under the order form: balance, available, PnL, margin ratio and the transfer. */
export function AccountSummary({ account, onChanged }: { account: FuturesAccount; onChanged: () => void }) {
  const { t } = useTranslation("futures");
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
        <h2>{t("account")}</h2>
        <TransferButton account={account} onDone={onChanged} />
      </header>
      <dl data-testid="futures-account">
        {row(t("wallet"), `${formatDecimal(account.wallet, 2)} USDT`, "futures-wallet")}
        {row(t("available"), `${formatDecimal(account.available, 2)} USDT`, "futures-available")}
        {row(t("unrealisedPnl"), `${formatDecimal(account.unrealisedPnl, 2)} USDT`, "futures-upnl")}
        {row(
          t("marginRatio"),
          account.marginRatio === null ? "--" : `${account.marginRatio}%`,
          "futures-ratio",
        )}
      </dl>
    </div>
  );
}

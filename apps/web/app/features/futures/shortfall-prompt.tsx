import type { FuturesAccount } from "@meridian/contracts";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { assetAmount } from "../../ui/amounts.ts";
import { antdIsland } from "../trading-screen/antd-island.tsx";

// The antd dialog is fetched when the prompt first opens it (the trade routes load no antd).
const WalletTransferDialog = antdIsland(() =>
  import("../trading-screen/wallet-transfer.tsx").then((m) => m.WalletTransferDialog),
);
const CoinTransferDialog = antdIsland(() => import("./coin-transfer.tsx").then((m) => m.CoinTransferDialog));

/** What an order lacked (14002, in the wallet's asset), and whether its transfer dialog is open. */
export interface Shortfall {
  amount: string;
  open: boolean;
}

/**
 * Under a refused order: what the futures wallet lacks and a spot -> futures transfer
 * for it (opened at once on the refusal; the dialog prefills the shortfall, at most the
 * spot balance). Amounts shown in the site's USDT format ("1,234.50").
 */
export function ShortfallPrompt({
  shortfall,
  coin,
  account,
  onOpen,
  onClose,
  onDone,
}: {
  shortfall: Shortfall;
  /** A coin-margined wallet's coin: the transfer moves that coin into it. */
  coin?: string | undefined;
  account?: FuturesAccount | null;
  onOpen: () => void;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation("futures");
  const amount = assetAmount(coin ?? "USDT", shortfall.amount);
  return (
    <>
      <div className="futures-shortfall" data-testid="futures-shortfall">
        <p>{coin ? t("coin.shortfall", { amount, coin }) : t("shortfall.text", { amount })}</p>
        <button
          type="button"
          className="trade-submit is-buy"
          onClick={onOpen}
          data-testid="futures-shortfall-transfer"
        >
          {coin ? t("coin.shortfallAction", { amount, coin }) : t("shortfall.action", { amount })}
        </button>
      </div>
      {shortfall.open && coin ? (
        <CoinTransferDialog
          coin={coin}
          account={account ?? null}
          amount={shortfall.amount}
          onClose={onClose}
          onDone={onDone}
        />
      ) : shortfall.open ? (
        <WalletTransferDialog
          from="SPOT"
          to="FUTURES"
          asset="USDT"
          amount={shortfall.amount}
          onClose={onClose}
          onDone={onDone}
        />
      ) : null}
    </>
  );
}

/**
 * What the first visit offers (docs/trading.md, "Futures page"): a new paper account's
 * USDT is on spot, so an empty futures wallet comes with a prefilled spot -> futures
 * transfer of this much (the dialog caps it at the spot balance).
 */
export const STARTER_TRANSFER_USDT = "1000";

/** Above the order form while the futures wallet is empty: why, and the transfer that fills it. */
export function StarterTransfer({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation("futures");
  const [open, setOpen] = useState(false);
  const amount = assetAmount("USDT", STARTER_TRANSFER_USDT);
  return (
    <>
      <div className="futures-shortfall" data-testid="futures-starter">
        <p>{t("starter.text")}</p>
        <button
          type="button"
          className="trade-submit is-buy"
          onClick={() => setOpen(true)}
          data-testid="futures-starter-transfer"
        >
          {t("shortfall.action", { amount })}
        </button>
      </div>
      {open ? (
        <WalletTransferDialog
          from="SPOT"
          to="FUTURES"
          asset="USDT"
          amount={STARTER_TRANSFER_USDT}
          onClose={() => setOpen(false)}
          onDone={() => {
            setOpen(false);
            onDone();
          }}
        />
      ) : null}
    </>
  );
}

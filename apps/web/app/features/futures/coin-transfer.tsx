import type { FuturesAccount } from "@meridian/contracts";
import { compare, isPositive, normalizeDecimal } from "@meridian/domain";
import { Button, type ButtonProps, Modal } from "antd";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { futuresApi } from "../../api/futures.ts";
import { errorCode, paperApi } from "../../api/paper.ts";
import { newClientId } from "../../lib/client-id.ts";
import { TransferAmount } from "../../ui/amount-field.tsx";
import { transferPrefill } from "../../ui/amounts.ts";

export interface CoinTransferProps {
  /** The coin of the coin-margined wallet ("BTC"). */
  coin: string;
  /** The wallet as last read (its maxTransferOut bounds a transfer out). */
  account: FuturesAccount | null;
  /** A suggested amount in the coin (an order's shortfall), prefilled up to what spot holds. */
  amount?: string | undefined;
  onDone: () => void;
  primary?: boolean;
  testId?: string;
}

/** The transfer button of a coin-margined wallet: spot <-> that coin's futures wallet. */
export function CoinTransferButton(props: CoinTransferProps) {
  const { t } = useTranslation("futures");
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button
        size={props.primary ? "middle" : "small"}
        type={props.primary ? "primary" : "default"}
        onClick={() => setOpen(true)}
        data-testid={props.testId ?? "futures-transfer-open"}
      >
        {t("coin.transfer", { coin: props.coin })}
      </Button>
      {open ? <CoinTransferDialog {...props} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

/**
 * Spot <-> the coin's coin-margined wallet (`POST /v1/paper/futures/transfer` with the
 * coin as `asset`): the direction, the amount in the coin and what may move (spot's
 * available, or the wallet's maxTransferOut).
 */
export function CoinTransferDialog(props: CoinTransferProps & { onClose: () => void }) {
  const { t } = useTranslation("futures");
  const { t: tm } = useTranslation("margin");
  const { coin } = props;
  const [direction, setDirection] = useState<"IN" | "OUT">("IN");
  const [typed, setTyped] = useState<string | null>(null);
  const [max, setMax] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const amount = typed ?? transferPrefill(direction === "IN" ? props.amount : undefined, max);
  const walletOut = props.account?.maxTransferOut;

  useEffect(() => {
    let stale = false;
    setMax(null);
    const read =
      direction === "IN"
        ? paperApi.balances().then((list) => list.find((b) => b.asset === coin)?.available ?? "0")
        : walletOut !== undefined
          ? Promise.resolve(walletOut)
          : futuresApi.account(coin).then((a) => a.maxTransferOut);
    read.then(
      (m) => !stale && setMax(m),
      () => !stale && setMax("0"),
    );
    return () => {
      stale = true;
    };
  }, [direction, coin, walletOut]);

  // One id per transfer as shown: confirming again after a failure does not move it twice.
  const sent = useRef<{ key: string; id: string } | null>(null);
  const submit = async () => {
    const value = normalizeDecimal(amount);
    if (value === "" || !isPositive(value) || (max !== null && compare(value, max) > 0)) {
      setProblem(tm("transfer.invalid"));
      return;
    }
    const key = `${direction}|${value}`;
    if (sent.current?.key !== key) sent.current = { key, id: newClientId() };
    setBusy(true);
    setProblem("");
    try {
      await futuresApi.transfer(direction, value, coin, sent.current.id);
      sent.current = null;
      props.onClose();
      props.onDone();
    } catch (e) {
      const code = errorCode(e);
      const text = t(`errors.${code}`, { defaultValue: tm("errors.generic") });
      setProblem(code === "" ? tm("errors.network") : `${text} (${code})`);
    } finally {
      setBusy(false);
    }
  };

  const spot = tm("wallets.SPOT");
  const wallet = t("coin.account", { coin });
  const [from, to] = direction === "IN" ? [spot, wallet] : [wallet, spot];
  return (
    <Modal
      open
      title={t("coin.transfer", { coin })}
      onCancel={props.onClose}
      onOk={() => void submit()}
      okText={tm("transfer.confirm")}
      cancelText={t("cancel")}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "transfer-submit" } as ButtonProps}
      destroyOnHidden
    >
      <div className="trade-dialog" data-testid="coin-transfer">
        <div className="wallet-transfer-route">
          <p className="trade-field is-static">
            <span>{tm("transfer.from")}</span>
            <span className="trade-field-static" data-testid="transfer-from">
              {from}
            </span>
          </p>
          <Button
            size="small"
            onClick={() => {
              setDirection((d) => (d === "IN" ? "OUT" : "IN"));
              setTyped(null);
              setProblem("");
            }}
            aria-label={tm("transfer.swap")}
            data-testid="transfer-swap"
          >
            ⇅
          </Button>
          <p className="trade-field is-static">
            <span>{tm("transfer.to")}</span>
            <span className="trade-field-static" data-testid="transfer-to">
              {to}
            </span>
          </p>
        </div>
        <TransferAmount asset={coin} value={amount} onChange={setTyped} max={max} problem={problem} />
      </div>
    </Modal>
  );
}

import type { FuturesAccount } from "@meridian/contracts";
import { Button, type ButtonProps, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { errorCode, paperApi } from "../trade/api.ts";
import {
  compare,
  formatDecimal,
  isPositive,
  normalizeDecimal,
  sanitizeDecimalInput,
} from "../trade/decimal.ts";
import { futuresApi } from "./api.ts";

type Direction = "IN" | "OUT";

/**
 * Moves USDT between the spot paper account and the futures wallet (IN: spot to futures).
 * The most that may move is spot's available USDT, or the wallet's maxTransferOut.
 */
export function TransferButton({
  account,
  onDone,
  primary = false,
}: {
  account: FuturesAccount | null;
  onDone: () => void;
  primary?: boolean;
}) {
  const { t } = useTranslation("futures");
  const [open, setOpen] = useState(false);
  const [direction, setDirection] = useState<Direction>("IN");
  const [amount, setAmount] = useState("");
  const [spot, setSpot] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");

  useEffect(() => {
    if (!open) return;
    void paperApi.balances().then(
      (list) => setSpot(list.find((b) => b.asset === "USDT")?.available ?? "0"),
      () => setSpot(null),
    );
  }, [open]);

  const max = direction === "IN" ? (spot ?? "0") : (account?.maxTransferOut ?? "0");
  const submit = async () => {
    const value = normalizeDecimal(amount);
    if (value === "" || !isPositive(value) || compare(value, max) > 0) {
      setProblem(t("transfer.invalid"));
      return;
    }
    setBusy(true);
    setProblem("");
    try {
      await futuresApi.transfer(direction, value);
      setOpen(false);
      setAmount("");
      onDone();
    } catch (e) {
      const code = errorCode(e);
      setProblem(t(`errors.${code}`, { defaultValue: t("errors.generic") }));
    } finally {
      setBusy(false);
    }
  };

  const from = direction === "IN" ? t("transfer.spot") : t("transfer.futures");
  const to = direction === "IN" ? t("transfer.futures") : t("transfer.spot");
  return (
    <>
      <Button
        size={primary ? "middle" : "small"}
        type={primary ? "primary" : "default"}
        onClick={() => setOpen(true)}
        data-testid="futures-transfer-open"
      >
        {t("transfer.button")}
      </Button>
      <Modal
        open={open}
        title={t("transfer.title")}
        onCancel={() => setOpen(false)}
        onOk={() => void submit()}
        okText={t("transfer.confirm")}
        cancelText={t("cancel")}
        confirmLoading={busy}
        okButtonProps={{ "data-testid": "transfer-submit" } as ButtonProps}
        destroyOnHidden
      >
        <div className="futures-transfer" data-testid="futures-transfer">
          <div className="futures-transfer-route">
            <span>
              {t("transfer.from")} <b data-testid="transfer-from">{from}</b>
            </span>
            <Button
              size="small"
              onClick={() => {
                setDirection((d) => (d === "IN" ? "OUT" : "IN"));
                setProblem("");
              }}
              aria-label={t("transfer.swap")}
              data-testid="transfer-swap"
            >
              ⇅
            </Button>
            <span>
              {t("transfer.to")} <b>{to}</b>
            </span>
          </div>
          <label className="trade-field">
            <span>{t("amount")}</span>
            <input
              dir="ltr"
              inputMode="decimal"
              autoComplete="off"
              value={amount}
              onChange={(e) => setAmount(sanitizeDecimalInput(e.target.value, 8))}
              data-testid="transfer-amount"
            />
            <span className="trade-field-suffix">USDT</span>
            <button
              type="button"
              className="trade-link-button"
              onClick={() => setAmount(normalizeDecimal(max))}
            >
              {t("transfer.max")}
            </button>
          </label>
          <p className="futures-transfer-max">
            {t("transfer.available")}: <bdi dir="ltr">{formatDecimal(max, 2)} USDT</bdi>
          </p>
          {problem ? (
            <p role="alert" className="futures-notice is-error" data-testid="transfer-problem">
              {problem}
            </p>
          ) : null}
        </div>
      </Modal>
    </>
  );
}

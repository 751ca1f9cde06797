import type { MarginAccountView } from "@meridian/contracts";
import { add, compare, isPositive, normalizeDecimal } from "@meridian/domain";
import { type ButtonProps, Modal } from "antd";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { type MarginScope, marginApi, marginErrorText, scopeQuery, trimDecimal } from "../../api/margin.ts";
import { AmountField, PickField } from "../../ui/amount-field.tsx";
import { DialogButton } from "../../ui/dialog-button.tsx";

export type LoanAction = "borrow" | "repay";

interface BorrowRepayProps {
  action: LoanAction;
  scope: MarginScope;
  account: MarginAccountView | null;
  /** The assets offered (the pair's quote and base). */
  assets: readonly string[];
  onDone: (account: MarginAccountView) => void;
  primary?: boolean;
  size?: "small" | "middle";
}

/** What repaying can take: the owed amount (interest + principal), capped by the free balance. */
export function repayable(account: MarginAccountView | null, asset: string): { owed: string; max: string } {
  const row = account?.assets.find((a) => a.asset === asset);
  if (!row) return { owed: "0", max: "0" };
  const owed = add(row.borrowed, row.interest);
  return { owed, max: compare(owed, row.free) > 0 ? row.free : owed };
}

/**
 * Borrow or repay one asset of a margin account. The server refuses beyond the margin
 * level's limit (15002) or beyond what is owed or free (15003); its reason is shown.
 */
export function BorrowRepayButton(props: BorrowRepayProps) {
  const { t } = useTranslation("margin");
  return (
    <DialogButton
      label={t(`loan.${props.action}`)}
      testId={`margin-${props.action}-open`}
      primary={props.primary}
      size={props.size}
      dialog={(close) => <LoanDialog {...props} onClose={close} />}
    />
  );
}

function LoanDialog({
  action,
  scope,
  account,
  assets,
  onDone,
  onClose,
}: BorrowRepayProps & { onClose: () => void }) {
  const { t } = useTranslation("margin");
  const [asset, setAsset] = useState(assets[0] ?? "USDT");
  const [amount, setAmount] = useState("");
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState("");
  const [maxBorrow, setMaxBorrow] = useState<string | null>(null);
  const { mode, symbol } = scope;
  const owed = repayable(account, asset);
  const max = action === "borrow" ? (maxBorrow ?? "0") : owed.max;

  useEffect(() => {
    if (action !== "borrow") return undefined;
    let stale = false;
    setMaxBorrow(null);
    marginApi.maxBorrowable({ ...scopeQuery({ mode, symbol }), asset }).then(
      (m) => !stale && setMaxBorrow(m.amount),
      () => !stale && setMaxBorrow("0"),
    );
    return () => {
      stale = true;
    };
  }, [action, mode, symbol, asset]);

  const submit = async () => {
    const value = normalizeDecimal(amount);
    if (value === "" || !isPositive(value)) {
      setProblem(t("loan.invalid"));
      return;
    }
    setBusy(true);
    setProblem("");
    try {
      const body = { ...scope, asset, amount: value };
      const view = await (action === "borrow" ? marginApi.borrow(body) : marginApi.repay(body));
      onClose();
      onDone(view);
    } catch (e) {
      setProblem(marginErrorText(t, e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open
      title={t(`loan.${action}Title`)}
      onCancel={onClose}
      onOk={() => void submit()}
      okText={t(`loan.${action}`)}
      cancelText={t("cancel")}
      confirmLoading={busy}
      okButtonProps={{ "data-testid": "loan-submit" } as ButtonProps}
      destroyOnHidden
    >
      <div className="trade-dialog" data-testid={`loan-${action}`}>
        <p className="trade-dialog-note">
          {t("loan.account")}:{" "}
          <b>{scope.mode === "cross" ? t("cross") : `${t("isolated")} ${scope.symbol ?? ""}`}</b>
        </p>
        <PickField
          label={t("transfer.asset")}
          value={asset}
          options={assets}
          onChange={setAsset}
          testId="loan-asset"
        />
        <AmountField
          asset={asset}
          value={amount}
          onChange={setAmount}
          onMax={() => setAmount(normalizeDecimal(max))}
          testId="loan-amount"
        />
        <dl className="margin-facts">
          <div>
            <dt>{t(action === "borrow" ? "maxBorrowable" : "loan.maxRepay")}</dt>
            <dd data-testid="loan-limit">
              <bdi dir="ltr">
                {trimDecimal(max)} {asset}
              </bdi>
            </dd>
          </div>
          {action === "repay" ? (
            <div>
              <dt>{t("loan.owed")}</dt>
              <dd>
                <bdi dir="ltr">
                  {trimDecimal(owed.owed)} {asset}
                </bdi>
              </dd>
            </div>
          ) : null}
        </dl>
        <p className="trade-dialog-note">{t(action === "borrow" ? "loan.borrowNote" : "loan.repayNote")}</p>
        {problem ? (
          <p role="alert" className="trade-message is-error" data-testid="loan-problem">
            {problem}
          </p>
        ) : null}
      </div>
    </Modal>
  );
}

import { normalizeDecimal, sanitizeDecimalInput } from "@meridian/domain";
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { assetAmount } from "./amounts.ts";

/** An amount input of the trading dialogs (transfer, borrow/repay, adjust margin): decimal text, the asset after it and a Max link. */
export function AmountField({
  asset,
  value,
  onChange,
  onMax,
  testId,
}: {
  asset: string;
  value: string;
  onChange: (v: string) => void;
  onMax: () => void;
  /** `<testId>` on the input, `<testId>-max` on the link. */
  testId: string;
}) {
  const { t } = useTranslation("margin");
  const id = useId();
  return (
    <div className="trade-field">
      <label htmlFor={id}>{t("transfer.amount")}</label>
      <input
        id={id}
        dir="ltr"
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(sanitizeDecimalInput(e.target.value, 8))}
        data-testid={testId}
      />
      <span className="trade-field-suffix">{asset}</span>
      <button type="button" className="trade-link-button" onClick={onMax} data-testid={`${testId}-max`}>
        {t("transfer.max")}
      </button>
    </div>
  );
}

/** A labelled native select of the trading dialogs. */
export function PickField({
  label,
  value,
  options,
  onChange,
  testId,
  render = (o) => o,
}: {
  label: string;
  value: string;
  options: readonly string[];
  onChange: (v: string) => void;
  testId: string;
  render?: (option: string) => string;
}) {
  return (
    <label className="wallet-transfer-end">
      <span>{label}</span>
      <select
        className="trade-select"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      >
        {options.map((o) => (
          <option key={o} value={o}>
            {render(o)}
          </option>
        ))}
      </select>
    </label>
  );
}

/**
 * A transfer dialog's amount (spot, futures and margin wallets): the field, whose Max takes
 * the whole available amount, the available amount in the asset's precision ("--" until
 * read), and the refusal under it when there is one.
 */
export function TransferAmount({
  asset,
  value,
  onChange,
  max,
  problem,
}: {
  asset: string;
  value: string;
  onChange: (v: string) => void;
  /** What may be moved, a decimal string; null until read. */
  max: string | null;
  problem: string;
}) {
  const { t } = useTranslation("margin");
  return (
    <>
      <AmountField
        asset={asset}
        value={value}
        onChange={onChange}
        onMax={() => max !== null && onChange(normalizeDecimal(max))}
        testId="transfer-amount"
      />
      <p className="trade-dialog-note">
        {t("transfer.available")}:{" "}
        <bdi dir="ltr" data-testid="transfer-available">
          {max === null ? "--" : `${assetAmount(asset, max)} ${asset}`}
        </bdi>
      </p>
      {problem ? (
        <p role="alert" className="trade-message is-error" data-testid="transfer-problem">
          {problem}
        </p>
      ) : null}
    </>
  );
}

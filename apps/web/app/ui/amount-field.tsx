import { sanitizeDecimalInput } from "@meridian/domain";
import { useId } from "react";
import { useTranslation } from "react-i18next";

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

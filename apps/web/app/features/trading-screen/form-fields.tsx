import type { TimeInForceValue } from "@meridian/contracts";
import { sanitizeDecimalInput } from "@meridian/domain";
import { type CSSProperties, useId } from "react";
import { useTranslation } from "react-i18next";

interface FieldProps {
  label: string;
  /** The asset shown after the figure. */
  suffix: string;
  value: string;
  onChange: (v: string) => void;
  /** Fraction digits the field accepts (the tick or lot precision). */
  decimals: number;
  testId: string;
  /** Shown while empty (default "0"); for an optional field, what empty means. */
  placeholder?: string;
  /** The id of the problem shown under the field, when the field has one: marks it invalid. */
  describedBy?: string | undefined;
}

/** A decimal input of the order form: typed text is cleaned to a decimal, figures stay left-to-right. */
export function Field({
  label,
  suffix,
  value,
  onChange,
  decimals,
  testId,
  placeholder = "0",
  describedBy,
}: FieldProps) {
  const id = useId();
  return (
    <div className="trade-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        placeholder={placeholder}
        dir="ltr"
        onChange={(e) => onChange(sanitizeDecimalInput(e.target.value, decimals))}
        data-testid={testId}
        aria-invalid={describedBy === undefined ? undefined : true}
        aria-describedby={describedBy}
      />
      <span className="trade-field-suffix">{suffix}</span>
    </div>
  );
}

/** 0-100 % of the available balance: a range input plus quarter marks. */
export function PercentSlider({
  value,
  label,
  onChange,
  testId,
}: {
  value: number;
  label: string;
  onChange: (percent: number) => void;
  testId: string;
}) {
  return (
    <div className="trade-slider">
      <input
        type="range"
        min={0}
        max={100}
        step={1}
        value={value}
        onChange={(e) => onChange(Number(e.target.value))}
        aria-label={label}
        aria-valuetext={`${value}%`}
        style={{ "--pct": `${value}%` } as CSSProperties}
        data-testid={testId}
      />
      <div className="trade-slider-marks">
        {[0, 25, 50, 75, 100].map((p) => (
          <button
            key={p}
            type="button"
            className={value >= p ? "is-on" : undefined}
            onClick={() => onChange(p)}
          >
            {p}%
          </button>
        ))}
      </div>
    </div>
  );
}

/**
 * A limit order's options (Binance): post-only (sent as LIMIT_MAKER, refused if it would
 * take) and time in force. Post-only orders always rest, so time in force is off with it.
 */
export function LimitOptions({
  postOnly,
  onPostOnly,
  tif,
  onTif,
  choices,
  testSuffix,
}: {
  postOnly: boolean;
  onPostOnly: (on: boolean) => void;
  tif: TimeInForceValue;
  onTif: (tif: TimeInForceValue) => void;
  choices: readonly TimeInForceValue[];
  testSuffix: string;
}) {
  const { t } = useTranslation("trade");
  const helpId = useId();
  return (
    <div className="trade-limit-options">
      <label className="trade-check" title={t("form.postOnlyHelp")}>
        <input
          type="checkbox"
          checked={postOnly}
          onChange={(e) => onPostOnly(e.target.checked)}
          aria-describedby={helpId}
          data-testid={`post-only-${testSuffix}`}
        />
        {t("form.postOnly")}
      </label>
      <span id={helpId} className="trade-visually-hidden">
        {t("form.postOnlyHelp")}
      </span>
      <label className="trade-tif">
        <span>{t("form.tif")}</span>
        <select
          className="trade-select"
          value={postOnly ? "GTC" : tif}
          disabled={postOnly}
          onChange={(e) => onTif(e.target.value as TimeInForceValue)}
          data-testid={`tif-${testSuffix}`}
        >
          {choices.map((c) => (
            <option key={c} value={c} title={t(`form.tifs.${c}`)}>
              {c}
            </option>
          ))}
        </select>
      </label>
    </div>
  );
}

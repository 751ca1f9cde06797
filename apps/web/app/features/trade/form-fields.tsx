import { type CSSProperties, useId } from "react";
import { sanitizeDecimalInput } from "./decimal.ts";

interface FieldProps {
  label: string;
  /** The asset shown after the figure. */
  suffix: string;
  value: string;
  onChange: (v: string) => void;
  /** Fraction digits the field accepts (the tick or lot precision). */
  decimals: number;
  testId: string;
}

/** A decimal input of the order form: typed text is cleaned to a decimal, figures stay left-to-right. */
export function Field({ label, suffix, value, onChange, decimals, testId }: FieldProps) {
  const id = useId();
  return (
    <div className="trade-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        placeholder="0"
        dir="ltr"
        onChange={(e) => onChange(sanitizeDecimalInput(e.target.value, decimals))}
        data-testid={testId}
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

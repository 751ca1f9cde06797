import type { ReactNode } from "react";

/** One choice of a filter: a value shown as itself, or with a label of its own. */
export type FilterChoice = string | { value: string; label: ReactNode };

interface SelectFilterProps {
  label: string;
  /** The text of the empty value, which filters nothing. */
  allLabel: string;
  value: string;
  choices: readonly FilterChoice[];
  onChange: (value: string) => void;
  testId: string;
}

/** A select over a records list (type, asset, account, pair, side): "all" first, then the choices. */
export function SelectFilter({ label, allLabel, value, choices, onChange, testId }: SelectFilterProps) {
  return (
    <label>
      <span>{label}</span>
      <select
        className="trade-select"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      >
        <option value="">{allLabel}</option>
        {choices.map((c) =>
          typeof c === "string" ? (
            <option key={c} value={c}>
              {c}
            </option>
          ) : (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ),
        )}
      </select>
    </label>
  );
}

interface DateFilterProps {
  label: string;
  /** A `YYYY-MM-DD` day, or "" for none. */
  value: string;
  onChange: (value: string) => void;
  testId: string;
}

/** A day bound of a records list (from, to). */
export function DateFilter({ label, value, onChange, testId }: DateFilterProps) {
  return (
    <label>
      <span>{label}</span>
      <input
        className="trade-select"
        type="date"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        data-testid={testId}
      />
    </label>
  );
}

import { CONTENT_PAGE_LOCALES } from "@meridian/contracts/locales";
import type { TableColumnType } from "antd";

/** Every content language, by the locale code whose own translations it is (docs/content.md). */
export const CONTENT_LANGUAGE_CODES: readonly string[] = CONTENT_PAGE_LOCALES.filter(
  (l) => l.content === l.code,
).map((l) => l.code);

/**
 * An administrator's view of one item's languages: those it is written in, then the
 * missing ones (`missingLabel` receives the list).
 */
export function LanguageCoverage({
  languages,
  missingLabel,
}: {
  languages: readonly string[];
  missingLabel: (list: string) => string;
}) {
  const missing = CONTENT_LANGUAGE_CODES.filter((c) => !languages.includes(c));
  return (
    <span className="content-languages" data-languages={languages.join(",")}>
      <span>{languages.join(", ")}</span>
      {missing.length > 0 ? (
        <>
          <br />
          <small style={{ opacity: 0.7 }}>{missingLabel(missing.join(", "))}</small>
        </>
      ) : null}
    </span>
  );
}

/**
 * The administrators' tables' languages column for rows with `contentLanguages`:
 * `title` heads it, `missingLabel` as for LanguageCoverage.
 */
export function languageCoverageColumn<Row extends { contentLanguages: readonly string[] }>(
  title: string,
  missingLabel: (list: string) => string,
): TableColumnType<Row> {
  return {
    title,
    dataIndex: "contentLanguages",
    render: (langs: string[]) => <LanguageCoverage languages={langs} missingLabel={missingLabel} />,
  };
}

/**
 * The editors' language switch (docs/content.md): English edits the whole item, another
 * language only that language's texts. A `*` marks the languages not written yet
 * (`written(code)` false). `testId` names the control for the browser tests.
 */
export function ContentLanguageSwitch({
  label,
  value,
  written,
  onChange,
  testId,
}: {
  label: string;
  value: string;
  written: (code: string) => boolean;
  onChange: (code: string) => void;
  testId: string;
}) {
  return (
    <label className="content-language-switch">
      {label}{" "}
      <select value={value} data-testid={testId} onChange={(event) => onChange(event.target.value)}>
        {CONTENT_LANGUAGE_CODES.map((code) => (
          <option key={code} value={code}>
            {code}
            {code === "en" || written(code) ? "" : " *"}
          </option>
        ))}
      </select>
    </label>
  );
}

/** Whether a stored translation holds a non-empty `field` (the body that makes it written). */
export function hasText(
  translations: Readonly<Record<string, Readonly<Record<string, unknown>> | undefined>> | undefined,
  code: string,
  field: string,
): boolean {
  const value = translations?.[code]?.[field];
  return typeof value === "string" && value.trim() !== "";
}

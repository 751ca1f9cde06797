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

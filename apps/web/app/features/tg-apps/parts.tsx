import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

export interface Crumb {
  name: string;
  /** Path without the language prefix; the last crumb (the current page) has none. */
  path?: string;
}

/** Home > ... > this page, as an ordered list of links. */
export function Breadcrumb({ locale, items }: { locale: string; items: Crumb[] }) {
  const { t } = useTranslation("tgApps");
  return (
    <nav className="tga-breadcrumb" aria-label={t("breadcrumb.label")}>
      <ol>
        {items.map((c, i) =>
          c.path !== undefined && i < items.length - 1 ? (
            <li key={c.name}>
              <Link to={localizePath(locale, c.path)}>{c.name}</Link>
            </li>
          ) : (
            <li key={c.name} aria-current="page">
              {c.name}
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

/** Previous / page x of y / next, as plain links so every page is crawlable. */
export function Pagination({
  page,
  pages,
  hrefOf,
}: {
  page: number;
  pages: number;
  hrefOf: (page: number) => string;
}) {
  const { t } = useTranslation("tgApps");
  if (pages <= 1) return null;
  return (
    <nav className="tga-pagination" aria-label={t("pagination.label")}>
      {page > 1 ? (
        <Link to={hrefOf(page - 1)} rel="prev" className="tga-button">
          {t("pagination.prev")}
        </Link>
      ) : (
        <span className="tga-button" aria-disabled="true">
          {t("pagination.prev")}
        </span>
      )}
      <span>{t("pagination.page", { page, pages })}</span>
      {page < pages ? (
        <Link to={hrefOf(page + 1)} rel="next" className="tga-button">
          {t("pagination.next")}
        </Link>
      ) : (
        <span className="tga-button" aria-disabled="true">
          {t("pagination.next")}
        </span>
      )}
    </nav>
  );
}

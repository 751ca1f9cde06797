import type { AirdropListResult } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { AirdropTable } from "./airdrop-table.tsx";
import { type ListState, listHref } from "./links.ts";
import { ListFilters } from "./list-filters.tsx";
import { Breadcrumbs, Disclaimer } from "./parts.tsx";

export interface AirdropListProps {
  locale: string;
  state: ListState;
  result: AirdropListResult;
}

/** All airdrops: filters, sortable table (cards on phones) and link-based pagination. */
export function AirdropListPage({ locale, state, result }: AirdropListProps) {
  const { t } = useTranslation("airdrops");
  return (
    <div className="ad-page">
      <Breadcrumbs
        items={[
          { name: t("breadcrumb.home"), href: localizePath(locale, "/") },
          { name: t("breadcrumb.airdrops"), href: localizePath(locale, "/airdrops") },
          { name: t("breadcrumb.list") },
        ]}
      />
      <header className="ad-list-head">
        <h1>{t("list.title")}</h1>
        <p className="ad-lead">{t("list.description")}</p>
      </header>
      <ListFilters locale={locale} state={state} chains={result.chains} />
      <p className="ad-muted" aria-live="polite">
        {t("list.results", { count: result.total })}
      </p>
      {result.items.length === 0 ? (
        <p className="ad-empty">{t("list.empty")}</p>
      ) : (
        <AirdropTable items={result.items} locale={locale} state={state} />
      )}
      {result.total > result.pageSize ? (
        <nav aria-label={t("list.pagination")} className="ad-pagination">
          <PageLinks
            locale={locale}
            state={state}
            page={result.page}
            pages={Math.ceil(result.total / result.pageSize)}
          />
        </nav>
      ) : null}
      <Disclaimer locale={locale} />
    </div>
  );
}

/** Page numbers around the current one plus the first and last, as plain links. */
function pageWindow(page: number, pages: number): (number | "gap")[] {
  const out: (number | "gap")[] = [];
  for (let p = 1; p <= pages; p++) {
    if (p === 1 || p === pages || Math.abs(p - page) <= 2) out.push(p);
    else if (out[out.length - 1] !== "gap") out.push("gap");
  }
  return out;
}

function PageLinks({
  locale,
  state,
  page,
  pages,
}: {
  locale: string;
  state: ListState;
  page: number;
  pages: number;
}) {
  const { t } = useTranslation("airdrops");
  return (
    <ul className="ad-pages">
      <li>
        {page > 1 ? (
          <Link to={listHref(locale, state, { page: page - 1 })} rel="prev">
            {t("list.prev")}
          </Link>
        ) : (
          <span aria-disabled="true">{t("list.prev")}</span>
        )}
      </li>
      {pageWindow(page, pages).map((p, i) =>
        p === "gap" ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: gaps have no identity but their place.
          <li key={`gap-${i}`} aria-hidden>
            …
          </li>
        ) : (
          <li key={p}>
            <Link
              to={listHref(locale, state, { page: p })}
              aria-label={t("list.page", { page: p })}
              aria-current={p === page ? "page" : undefined}
            >
              {p}
            </Link>
          </li>
        ),
      )}
      <li>
        {page < pages ? (
          <Link to={listHref(locale, state, { page: page + 1 })} rel="next">
            {t("list.next")}
          </Link>
        ) : (
          <span aria-disabled="true">{t("list.next")}</span>
        )}
      </li>
    </ul>
  );
}

import type { AirdropListResult } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";
import { Pagination } from "antd";
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
          <Pagination
            current={result.page}
            pageSize={result.pageSize}
            total={result.total}
            showSizeChanger={false}
            // The items are links: navigation happens through them, not through state.
            onChange={() => undefined}
            itemRender={(page, type, element) => {
              if (type === "jump-prev" || type === "jump-next") return element;
              const label =
                type === "prev" ? t("list.prev") : type === "next" ? t("list.next") : String(page);
              return (
                <Link
                  to={listHref(locale, state, { page })}
                  aria-label={type === "page" ? t("list.page", { page }) : label}
                >
                  {label}
                </Link>
              );
            }}
          />
        </nav>
      ) : null}
      <Disclaimer />
    </div>
  );
}

import type { AirdropSortField, AirdropSummary } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { formatDate, formatFiat } from "../../ui/money.ts";
import { useFiat } from "../shell/fiat.tsx";
import { detailHref, type ListState, listHref, spotHref } from "./links.ts";
import { CoinAvatar, StatusTag } from "./parts.tsx";

const COLUMNS: readonly AirdropSortField[] = [
  "name",
  "ticker",
  "chain",
  "status",
  "estValue",
  "currentPrice",
  "listingAt",
  "startAt",
  "endAt",
  "claimAt",
];

function SortHeader({ field, locale, state }: { field: AirdropSortField; locale: string; state: ListState }) {
  const { t } = useTranslation("airdrops");
  const active = state.sort === field;
  const order = active ? (state.order ?? "asc") : undefined;
  const next = active && order === "asc" ? "desc" : "asc";
  return (
    <th
      scope="col"
      aria-sort={order === undefined ? undefined : order === "asc" ? "ascending" : "descending"}
    >
      <Link
        to={listHref(locale, state, { sort: field, order: next, page: 1 })}
        className="ad-sort"
        rel="nofollow"
        aria-label={t("list.sortColumn", { column: t(`columns.${field}`) })}
      >
        {t(`columns.${field}`)}
        <span aria-hidden className="ad-sort-mark">
          {order === "asc" ? "▲" : order === "desc" ? "▼" : "↕"}
        </span>
      </Link>
    </th>
  );
}

/**
 * The All airdrops table. On phones the same rows turn into cards (CSS: each cell shows
 * its column name from data-label), so there is one markup for every width.
 */
export function AirdropTable({
  items,
  locale,
  state,
}: {
  items: AirdropSummary[];
  locale: string;
  state: ListState;
}) {
  const { t } = useTranslation("airdrops");
  const { fiat } = useFiat();
  const label = (f: string) => t(`columns.${f}`);
  return (
    <div className="ad-table-wrap">
      <table className="ad-table">
        <caption className="ad-visually-hidden">{t("list.title")}</caption>
        <thead>
          <tr>
            {COLUMNS.map((f) => (
              <SortHeader key={f} field={f} locale={locale} state={state} />
            ))}
            <th scope="col">{t("columns.action")}</th>
          </tr>
        </thead>
        <tbody>
          {items.map((a) => (
            <tr
              key={a.slug}
              data-slug={a.slug}
              data-track-expose="b9401"
              data-track-ext={JSON.stringify({ airdrop: a.slug })}
              data-track-merge
            >
              <th scope="row" data-label={label("name")}>
                <Link to={detailHref(locale, a.slug)} className="ad-name">
                  <CoinAvatar ticker={a.ticker} size={28} image={a.images?.logo} />
                  <span>{a.name}</span>
                </Link>
              </th>
              <td data-label={label("ticker")}>{a.ticker}</td>
              <td data-label={label("chain")}>{a.chain}</td>
              <td data-label={label("status")}>
                <span className="ad-status-cell">
                  <StatusTag status={a.status} />
                  {a.status === "active" ? (
                    <span className="ad-days">{t("detail.daysLeft", { count: a.daysLeft })}</span>
                  ) : null}
                </span>
              </td>
              <td data-label={label("estValue")}>{formatFiat(a.estValue, fiat, locale)}</td>
              <td data-label={label("currentPrice")}>
                {a.currentPrice === "0" ? t("detail.notListed") : formatFiat(a.currentPrice, fiat, locale)}
              </td>
              <td data-label={label("listingAt")}>{formatDate(a.listingAt, locale) || t("detail.tba")}</td>
              <td data-label={label("startAt")}>{formatDate(a.startAt, locale)}</td>
              <td data-label={label("endAt")}>{formatDate(a.endAt, locale)}</td>
              <td data-label={label("claimAt")}>{formatDate(a.claimAt, locale) || t("detail.tba")}</td>
              <td className="ad-action">
                {a.marketSymbol ? (
                  <Link
                    to={spotHref(locale, a.marketSymbol)}
                    className="shell-button shell-button-primary"
                    data-track-click="b9402"
                  >
                    {t("actions.tradeNow")}
                    <span className="ad-visually-hidden"> {a.ticker}</span>
                  </Link>
                ) : (
                  <Link to={detailHref(locale, a.slug)} className="shell-button shell-button-outline">
                    {t("actions.details")}
                    <span className="ad-visually-hidden"> {a.name}</span>
                  </Link>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

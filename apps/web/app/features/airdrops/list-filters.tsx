import {
  AIRDROP_REQUIREMENTS,
  AIRDROP_SORT_FIELDS,
  AIRDROP_STATUSES,
  AIRDROP_TYPES,
} from "@meridian/contracts/airdrop-rules";
import { localizePath } from "@meridian/contracts/locales";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type ListState, listHref } from "./links.ts";

interface ChipGroupProps<T extends string> {
  label: string;
  values: readonly T[];
  current: T | undefined;
  text: (value: T) => string;
  href: (value: T | undefined) => string;
}

/** A row of filter links; the current one is marked for assistive technology. */
function ChipGroup<T extends string>({ label, values, current, text, href }: ChipGroupProps<T>) {
  const { t } = useTranslation("airdrops");
  return (
    <nav className="ad-chips" aria-label={label}>
      <span className="ad-chips-label">{label}</span>
      <Link
        to={href(undefined)}
        className="ad-chip"
        aria-current={current === undefined ? "true" : undefined}
      >
        {t("list.all")}
      </Link>
      {values.map((v) => (
        <Link key={v} to={href(v)} className="ad-chip" aria-current={current === v ? "true" : undefined}>
          {text(v)}
        </Link>
      ))}
    </nav>
  );
}

/**
 * Filters as links and one GET form (search, chain, sort): the whole list state lives in
 * the URL, so crawlers and visitors without JavaScript use the same controls.
 */
export function ListFilters({
  locale,
  state,
  chains,
}: {
  locale: string;
  state: ListState;
  chains: string[];
}) {
  const { t } = useTranslation("airdrops");
  return (
    <div className="ad-filters">
      <ChipGroup
        label={t("columns.status")}
        values={AIRDROP_STATUSES}
        current={state.status}
        text={(v) => t(`status.${v}`)}
        href={(v) => listHref(locale, state, { status: v })}
      />
      <ChipGroup
        label={t("detail.type")}
        values={AIRDROP_TYPES}
        current={state.type}
        text={(v) => t(`type.${v}`)}
        href={(v) => listHref(locale, state, { type: v })}
      />
      <ChipGroup
        label={t("detail.requirements")}
        values={AIRDROP_REQUIREMENTS}
        current={state.requirement}
        text={(v) => t(`requirement.${v}`)}
        href={(v) => listHref(locale, state, { requirement: v })}
      />
      <search>
        <form className="ad-search" method="get" action={localizePath(locale, "/airdrops/list")}>
          {state.status ? <input type="hidden" name="status" value={state.status} /> : null}
          {state.type ? <input type="hidden" name="type" value={state.type} /> : null}
          {state.requirement ? <input type="hidden" name="requirement" value={state.requirement} /> : null}
          <label>
            <span>{t("list.searchLabel")}</span>
            <input
              className="ad-input"
              type="search"
              name="q"
              defaultValue={state.q ?? ""}
              placeholder={t("list.search")}
              maxLength={60}
            />
          </label>
          <label>
            <span>{t("columns.chain")}</span>
            <select className="ad-input" name="chain" defaultValue={state.chain ?? ""}>
              <option value="">{t("list.anyChain")}</option>
              {chains.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>{t("list.sortBy")}</span>
            <select className="ad-input" name="sort" defaultValue={state.sort ?? ""}>
              <option value="">{t("list.defaultSort")}</option>
              {AIRDROP_SORT_FIELDS.map((f) => (
                <option key={f} value={f}>
                  {t(`columns.${f}`)}
                </option>
              ))}
            </select>
          </label>
          <label>
            <span>{t("list.order")}</span>
            <select className="ad-input" name="order" defaultValue={state.order ?? "asc"}>
              <option value="asc">{t("list.asc")}</option>
              <option value="desc">{t("list.desc")}</option>
            </select>
          </label>
          <button type="submit" className="shell-button shell-button-primary ad-button">
            {t("list.apply")}
          </button>
          <Link to={localizePath(locale, "/airdrops/list")} className="ad-link-strong">
            {t("list.reset")}
          </Link>
        </form>
      </search>
    </div>
  );
}

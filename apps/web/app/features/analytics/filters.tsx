import { TRACK_LANGUAGES } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { Form, Link } from "react-router";
import { type DashboardFilters, dayString } from "./range.ts";

const DAY_MS = 86_400_000;

/** Date range and language, carried in the URL so a view can be shared and reloaded. */
export function Filters({ filters, now }: { filters: DashboardFilters; now: number }) {
  const { t } = useTranslation("analytics");
  const today = dayString(now);
  const preset = (days: number) => {
    const q = new URLSearchParams({ from: dayString(now - (days - 1) * DAY_MS), to: today });
    if (filters.lang) q.set("lang", filters.lang);
    return `?${q.toString()}`;
  };
  return (
    <Form method="get" className="an-filters">
      <label>
        {t("filters.from")}
        <input type="date" name="from" defaultValue={filters.from} max={today} />
      </label>
      <label>
        {t("filters.to")}
        <input type="date" name="to" defaultValue={filters.to} max={today} />
      </label>
      <label>
        {t("filters.language")}
        <select name="lang" defaultValue={filters.lang}>
          <option value="">{t("filters.allLanguages")}</option>
          {Object.keys(TRACK_LANGUAGES).map((code) => (
            <option key={code} value={code}>
              {code}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="an-apply">
        {t("filters.apply")}
      </button>
      <nav className="an-presets">
        <Link to={preset(1)}>{t("filters.today")}</Link>
        <Link to={preset(7)}>{t("filters.last7")}</Link>
        <Link to={preset(30)}>{t("filters.last30")}</Link>
      </nav>
    </Form>
  );
}

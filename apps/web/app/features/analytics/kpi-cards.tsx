import type { AnalyticsKpis } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { durationParts, formatCount, formatPercent } from "./format.ts";
import { change } from "./range.ts";

interface Kpi {
  key: keyof AnalyticsKpis;
  label: string;
  format: (value: number) => string;
  /** For bounce rate a rise is bad news. */
  lowerIsBetter?: boolean;
}

/** The six headline figures, each against the same-length period before. */
export function KpiCards({
  current,
  previous,
  locale,
}: {
  current: AnalyticsKpis;
  previous: AnalyticsKpis;
  locale: string;
}) {
  const { t } = useTranslation("analytics");
  const count = (n: number) => formatCount(locale, n);
  const duration = (ms: number) => {
    const { key, values } = durationParts(ms);
    return t(`duration.${key}`, values);
  };
  const kpis: Kpi[] = [
    { key: "visitors", label: t("kpi.visitors"), format: count },
    { key: "sessions", label: t("kpi.sessions"), format: count },
    { key: "pageViews", label: t("kpi.pageViews"), format: count },
    { key: "firstDayVisitors", label: t("kpi.firstDayVisitors"), format: count },
    {
      key: "bounceRate",
      label: t("kpi.bounceRate"),
      format: (n) => formatPercent(locale, n),
      lowerIsBetter: true,
    },
    { key: "avgSessionMs", label: t("kpi.avgSession"), format: duration },
  ];
  return (
    <ul className="an-kpis">
      {kpis.map((kpi) => {
        const delta = change(current[kpi.key], previous[kpi.key]);
        const good = delta !== null && (kpi.lowerIsBetter ? delta < 0 : delta > 0);
        const tone = delta === null || delta === 0 ? "flat" : good ? "up" : "down";
        return (
          <li key={kpi.key} className="an-card" data-kpi={kpi.key}>
            <span className="an-kpi-label">{kpi.label}</span>
            <strong className="an-kpi-value">{kpi.format(current[kpi.key])}</strong>
            <span className={`an-delta an-delta-${tone}`} title={t("kpi.vsPrevious")}>
              {delta === null
                ? t("kpi.noPrevious")
                : `${delta > 0 ? "+" : ""}${formatPercent(locale, delta)} (${kpi.format(previous[kpi.key])})`}
            </span>
          </li>
        );
      })}
    </ul>
  );
}

import type { AnalyticsAudience, AnalyticsContent, AnalyticsCount } from "@meridian/contracts";
import { useTranslation } from "react-i18next";
import { formatCount, formatPercent } from "./format.ts";
import { languageName } from "./range.ts";

function Empty() {
  const { t } = useTranslation("analytics");
  return <p className="an-empty">{t("tables.empty")}</p>;
}

/** Top pages, tracked page ids, and the expose -> click rate of each tracked element. */
export function ContentTables({ content, locale }: { content: AnalyticsContent; locale: string }) {
  const { t } = useTranslation("analytics");
  const n = (v: number) => formatCount(locale, v);
  return (
    <div className="an-grid an-grid-2">
      <section className="an-card">
        <h2>{t("tables.pages")}</h2>
        {content.pages.length === 0 ? (
          <Empty />
        ) : (
          <table className="an-table">
            <thead>
              <tr>
                <th>{t("tables.path")}</th>
                <th>{t("tables.views")}</th>
                <th>{t("tables.visitors")}</th>
              </tr>
            </thead>
            <tbody>
              {content.pages.map((p) => (
                <tr key={p.path}>
                  <td className="an-path">{p.path}</td>
                  <td>{n(p.views)}</td>
                  <td>{n(p.visitors)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="an-card">
        <h2>{t("tables.trackingIds")}</h2>
        {content.trackingIds.length === 0 ? (
          <Empty />
        ) : (
          <table className="an-table">
            <thead>
              <tr>
                <th>{t("tables.id")}</th>
                <th>{t("tables.views")}</th>
                <th>{t("tables.visitors")}</th>
              </tr>
            </thead>
            <tbody>
              {content.trackingIds.map((p) => (
                <tr key={p.id}>
                  <td>
                    <code>{p.id}</code> {t(`tables.names.${p.id}`, { defaultValue: "" })}
                  </td>
                  <td>{n(p.views)}</td>
                  <td>{n(p.visitors)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="an-card an-wide">
        <h2>{t("tables.elements")}</h2>
        {content.elements.length === 0 ? (
          <Empty />
        ) : (
          <table className="an-table">
            <thead>
              <tr>
                <th>{t("tables.id")}</th>
                <th>{t("tables.exposes")}</th>
                <th>{t("tables.clicks")}</th>
                <th>{t("tables.rate")}</th>
              </tr>
            </thead>
            <tbody>
              {content.elements.map((e) => (
                <tr key={e.id}>
                  <td>
                    <code>{e.id}</code>
                  </td>
                  <td>{n(e.exposes)}</td>
                  <td>{n(e.clicks)}</td>
                  <td>{e.rate === null ? t("tables.noRate") : formatPercent(locale, e.rate)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </div>
  );
}

function Bars({
  title,
  rows,
  label,
  locale,
}: {
  title: string;
  rows: AnalyticsCount[];
  label: (key: string) => string;
  locale: string;
}) {
  const top = Math.max(1, ...rows.map((r) => r.count));
  return (
    <section className="an-card">
      <h2>{title}</h2>
      {rows.length === 0 ? (
        <Empty />
      ) : (
        <ul className="an-bars">
          {rows.map((r) => (
            <li key={r.key}>
              <span className="an-bar" style={{ width: `${(r.count / top) * 100}%` }} />
              <span className="an-bar-label">{label(r.key)}</span>
              <span className="an-bar-count">{formatCount(locale, r.count)}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Visitors by referrer host, language, device, browser and screen size. */
export function AudienceLists({ audience, locale }: { audience: AnalyticsAudience; locale: string }) {
  const { t } = useTranslation("analytics");
  const same = (key: string) => key;
  return (
    <div className="an-grid an-grid-3">
      <Bars
        title={t("audience.referrers")}
        rows={audience.referrers}
        label={(k) => k || t("audience.direct")}
        locale={locale}
      />
      <Bars title={t("audience.languages")} rows={audience.languages} label={languageName} locale={locale} />
      <Bars
        title={t("audience.devices")}
        rows={audience.devices}
        label={(k) => t(`audience.sys.${k}`, { defaultValue: k })}
        locale={locale}
      />
      <Bars title={t("audience.browsers")} rows={audience.browsers} label={same} locale={locale} />
      <Bars title={t("audience.screens")} rows={audience.screens} label={same} locale={locale} />
    </div>
  );
}

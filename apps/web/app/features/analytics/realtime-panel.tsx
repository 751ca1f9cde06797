import type { AnalyticsRealtime } from "@meridian/contracts";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useRevalidator } from "react-router";
import { formatCount } from "./format.ts";

const REFRESH_MS = 30_000;

/** Visitors and page views of the last 30 minutes; reloads the page data every 30 s. */
export function RealtimePanel({ realtime, locale }: { realtime: AnalyticsRealtime; locale: string }) {
  const { t } = useTranslation("analytics");
  const revalidator = useRevalidator();
  useEffect(() => {
    const timer = setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle")
        void revalidator.revalidate();
    }, REFRESH_MS);
    return () => clearInterval(timer);
  }, [revalidator]);

  const minutes = Array.from({ length: 30 }, (_, i) => {
    const t0 = Math.floor(realtime.since / 60_000) * 60_000 + (i + 1) * 60_000;
    return realtime.perMinute.find((p) => p.t === t0)?.pageViews ?? 0;
  });
  const top = Math.max(1, ...minutes);
  return (
    <section className="an-card an-realtime" aria-live="polite">
      <h2>{t("realtime.title")}</h2>
      <div className="an-realtime-figures">
        <div>
          <strong data-testid="realtime-visitors">{formatCount(locale, realtime.visitors)}</strong>
          <span>{t("realtime.visitors")}</span>
        </div>
        <div>
          <strong>{formatCount(locale, realtime.pageViews)}</strong>
          <span>{t("realtime.pageViews")}</span>
        </div>
      </div>
      {/* time runs left to right in every language, as on the traffic chart beside it */}
      <div className="an-spark" dir="ltr" role="img" aria-label={t("realtime.perMinute")}>
        {minutes.map((v, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: one bar per minute slot, in order
          <span key={i} style={{ height: `${(v / top) * 100}%` }} title={formatCount(locale, v)} />
        ))}
      </div>
      <ul className="an-realtime-pages">
        {realtime.pages.map((p) => (
          <li key={p.path}>
            <span className="an-path">{p.path}</span>
            <span>{formatCount(locale, p.views)}</span>
          </li>
        ))}
      </ul>
      <small>{t("realtime.refresh")}</small>
    </section>
  );
}

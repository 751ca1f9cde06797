import type { AnalyticsOverview } from "@meridian/contracts";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

/**
 * Page views (area) and visitors (line) over the range, drawn by lightweight-charts on
 * the client only (it needs a canvas); the server renders the empty frame.
 */
export function SeriesChart({ series, dark }: { series: AnalyticsOverview["series"]; dark: boolean }) {
  const { t } = useTranslation("analytics");
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = box.current;
    if (!container) return undefined;
    let disposed = false;
    let dispose = () => {};
    void import("lightweight-charts").then(({ createChart, AreaSeries, LineSeries, ColorType }) => {
      if (disposed) return;
      const text = dark ? "#eaecef" : "#1e2329";
      const grid = dark ? "#2b3139" : "#eef0f3";
      const chart = createChart(container, {
        autoSize: true,
        layout: { background: { type: ColorType.Solid, color: "transparent" }, textColor: text },
        grid: { vertLines: { color: grid }, horzLines: { color: grid } },
        timeScale: { timeVisible: true, secondsVisible: false },
        rightPriceScale: { borderVisible: false },
      });
      // counts: whole numbers on the scale and the labels (not "2.00")
      const counts = { type: "price", precision: 0, minMove: 1 } as const;
      const views = chart.addSeries(AreaSeries, {
        priceFormat: counts,
        lineColor: "#f0b90b",
        topColor: "rgba(240, 185, 11, 0.35)",
        bottomColor: "rgba(240, 185, 11, 0.02)",
        title: t("chart.pageViews"),
      });
      const visitors = chart.addSeries(LineSeries, {
        priceFormat: counts,
        color: "#2f80ed",
        lineWidth: 2,
        title: t("chart.visitors"),
      });
      const time = (ms: number) => Math.floor(ms / 1000) as Parameters<typeof views.update>[0]["time"];
      views.setData(series.map((p) => ({ time: time(p.t), value: p.pageViews })));
      visitors.setData(series.map((p) => ({ time: time(p.t), value: p.visitors })));
      chart.timeScale().fitContent();
      dispose = () => chart.remove();
    });
    return () => {
      disposed = true;
      dispose();
    };
  }, [series, dark, t]);

  return (
    <section className="an-card an-chart" aria-label={t("chart.title")}>
      <h2>{t("chart.title")}</h2>
      <div ref={box} className="an-chart-box" />
    </section>
  );
}

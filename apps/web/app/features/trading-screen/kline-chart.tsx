import {
  KLINE_INTERVAL_VALUES,
  type Kline,
  type KlineIntervalValue,
  type PaperTrade,
} from "@meridian/contracts";
import type { IChartApi, ISeriesApi, ISeriesMarkersPluginApi, Time, UTCTimestamp } from "lightweight-charts";
import { type RefObject, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { marketApi } from "../../api/paper.ts";
import type { FrameStore } from "./frame-store.ts";
import { KlinePreview, mergeCandle, type PreviewColors } from "./kline-preview.tsx";
import { readStored, StorageKey, writeStored } from "./storage.ts";
import { type LinkState, useFeed, useReconnects } from "./use-market.ts";
import { nextTask, whenIdle } from "./when-idle.ts";

const INTERVAL_MS: Record<KlineIntervalValue, number> = {
  "1m": 60_000,
  "5m": 300_000,
  "15m": 900_000,
  "30m": 1_800_000,
  "1h": 3_600_000,
  "4h": 14_400_000,
  "1d": 86_400_000,
};

/** How often the open candle is redrawn from the stream, at most. */
const LIVE_DRAW_MS = 1_000;

export const UP_COLOR = "#0ecb81";
export const DOWN_COLOR = "#f6465d";

function isInterval(v: string | null): v is KlineIntervalValue {
  return v !== null && (KLINE_INTERVAL_VALUES as readonly string[]).includes(v);
}

/** The stored k-line interval (docs/product.md §3), 15m until the visitor picks one. */
function useStoredInterval(): [KlineIntervalValue, (i: KlineIntervalValue) => void] {
  const [interval, setInterval] = useState<KlineIntervalValue>("15m");
  useEffect(() => {
    const stored = readStored(StorageKey.KLINE_INTERVAL);
    if (isInterval(stored)) setInterval(stored);
  }, []);
  return [
    interval,
    (next) => {
      setInterval(next);
      writeStored(StorageKey.KLINE_INTERVAL, next);
    },
  ];
}

/** Whether the user's fills are drawn on the chart (k-line marks key; on unless turned off). */
function useStoredMarks(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(true);
  useEffect(() => {
    setOn(readStored(StorageKey.KLINE_MARKS) !== "0");
  }, []);
  return [
    on,
    (next) => {
      setOn(next);
      writeStored(StorageKey.KLINE_MARKS, next ? "1" : "0");
    },
  ];
}

const toTime = (ms: number) => Math.floor(ms / 1000) as UTCTimestamp;

// Display-only conversions: the chart library draws numbers; money never flows back from it.
function candle(k: Kline) {
  return { time: toTime(k.openTime), open: +k.open, high: +k.high, low: +k.low, close: +k.close };
}
function volumeBar(k: Kline) {
  const up = +k.close >= +k.open;
  return {
    time: toTime(k.openTime),
    value: +k.volume,
    color: up ? VOLUME_UP : VOLUME_DOWN,
  };
}

type ChartLib = typeof import("lightweight-charts");

interface ChartParts {
  chart: IChartApi;
  candles: ISeriesApi<"Candlestick">;
  volume: ISeriesApi<"Histogram">;
  markers: ISeriesMarkersPluginApi<Time>;
}

const VOLUME_UP = "rgba(14,203,129,0.45)";
const VOLUME_DOWN = "rgba(246,70,93,0.45)";

/** The chart's text and grid colours for the theme. */
function themeColors(dark: boolean) {
  return { text: dark ? "#b7bdc6" : "#474d57", grid: dark ? "#1f242b" : "#f0f1f3" };
}

function previewColors(dark: boolean): PreviewColors {
  return {
    ...themeColors(dark),
    up: UP_COLOR,
    down: DOWN_COLOR,
    upVolume: VOLUME_UP,
    downVolume: VOLUME_DOWN,
  };
}

/** The chart, its two series and the fills' markers, coloured for the theme. */
function buildChart(lc: ChartLib, container: HTMLElement, dark: boolean, priceDecimals: number): ChartParts {
  const { text, grid } = themeColors(dark);
  const chart = lc.createChart(container, {
    autoSize: true,
    layout: {
      background: { type: lc.ColorType.Solid, color: "transparent" },
      textColor: text,
      fontSize: 11,
      attributionLogo: false,
    },
    grid: { vertLines: { color: grid }, horzLines: { color: grid } },
    crosshair: { mode: lc.CrosshairMode.Normal },
    timeScale: { timeVisible: true, secondsVisible: false, borderColor: grid },
    rightPriceScale: { borderColor: grid },
    localization: { priceFormatter: (p: number) => p.toFixed(priceDecimals) },
  });
  const candles = chart.addSeries(lc.CandlestickSeries, {
    upColor: UP_COLOR,
    downColor: DOWN_COLOR,
    borderVisible: false,
    wickUpColor: UP_COLOR,
    wickDownColor: DOWN_COLOR,
    priceFormat: { type: "price", precision: priceDecimals, minMove: 10 ** -priceDecimals },
  });
  const volume = chart.addSeries(lc.HistogramSeries, {
    priceScaleId: "volume",
    priceFormat: { type: "volume" },
    lastValueVisible: false,
    priceLineVisible: false,
  });
  chart.priceScale("volume").applyOptions({ scaleMargins: { top: 0.8, bottom: 0 } });
  candles.priceScale().applyOptions({ scaleMargins: { top: 0.08, bottom: 0.24 } });
  return { chart, candles, volume, markers: lc.createSeriesMarkers(candles, []) };
}

interface KlineChartProps {
  symbol: string;
  priceDecimals: number;
  dark: boolean;
  /** The user's fills for this symbol (drawn as markers when marks are on). */
  fills: readonly PaperTrade[];
  /** The market link: each time it comes back the history is read again to close the gap. */
  link: FrameStore<LinkState>;
}

/** The box's size in px, followed as it changes (the still chart is drawn to it). */
function useBoxSize(box: RefObject<HTMLDivElement | null>): { width: number; height: number } {
  const [size, setSize] = useState({ width: 0, height: 0 });
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const read = () => setSize({ width: el.clientWidth, height: el.clientHeight });
    read();
    if (typeof ResizeObserver !== "function") return undefined;
    const observer = new ResizeObserver(read);
    observer.observe(el);
    return () => observer.disconnect();
  }, [box]);
  return size;
}

/**
 * Candlesticks with volume: history from REST, the open candle live from
 * `kline@SYMBOL@interval`, colours following the theme. The still chart (kline-preview.tsx)
 * draws them at first; lightweight-charts (client only) takes over once the visitor points
 * at, touches or scrolls the chart, or when there are fills to mark on it.
 */
export function KlineChart({ symbol, priceDecimals, dark, fills, link }: KlineChartProps) {
  const { t } = useTranslation("trade");
  const reconnects = useReconnects(link);
  const feed = useFeed();
  const box = useRef<HTMLDivElement>(null);
  const parts = useRef<ChartParts | null>(null);
  const [interval, setInterval] = useStoredInterval();
  const [marksOn, setMarksOn] = useStoredMarks();
  const [ready, setReady] = useState(0);
  const [loading, setLoading] = useState(true);
  // The history and the live candle: `latest` always, `rows` for the still chart's renders.
  const latest = useRef<Kline[]>([]);
  const [rows, setRows] = useState<readonly Kline[]>([]);
  const [reached, setReached] = useState(false);
  const size = useBoxSize(box);
  const marking = marksOn && fills.some((f) => f.symbol === symbol);
  const live = reached || marking;
  const reach = () => setReached(true);

  // The history for the symbol and interval, then the open candle from the stream, for the
  // still chart and, once built, the live one.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `reconnects` re-reads the history after a dropped link.
  useEffect(() => {
    let stale = false;
    let read = false;
    // Loading until the new history is in: a live chart is built again from it.
    setLoading(true);
    latest.current = [];
    setRows(latest.current);
    void marketApi
      .klines(symbol, interval, 500)
      .catch(() => null)
      .then((list) => {
        if (stale) return;
        read = true;
        // Without history (a failed read) the stream's candles start the chart.
        latest.current = list ?? [];
        setRows(latest.current);
        setLoading(false);
      });
    // The open candle redraws at most once per LIVE_DRAW_MS (the stream pushes every
    // market tick, 4 a second by default, and each redraw is a long frame on a slow
    // phone); a candle that closes is drawn at once with its last figures.
    let pending: Kline | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const draw = () => {
      timer = undefined;
      const k = pending;
      pending = null;
      if (stale || !k || !read) return;
      latest.current = mergeCandle(latest.current, k);
      const p = parts.current;
      if (!p) {
        setRows(latest.current);
        return;
      }
      try {
        p.candles.update(candle(k));
        p.volume.update(volumeBar(k));
      } catch {
        // An update older than the history's last bar (a late push after a reload): skip it.
      }
    };
    const off = feed?.on(`kline@${symbol}@${interval}`, (data) => {
      if (stale) return;
      const k = data as Kline;
      if (pending && pending.openTime !== k.openTime) {
        clearTimeout(timer);
        draw();
      }
      pending = k;
      timer ??= setTimeout(draw, LIVE_DRAW_MS);
    });
    return () => {
      stale = true;
      clearTimeout(timer);
      off?.();
    };
  }, [symbol, interval, feed, reconnects]);

  // The live chart, built from the history in hand once wanted (and again for a new
  // theme or precision). The library's evaluation and the chart's build are two tasks.
  useEffect(() => {
    const container = box.current;
    if (!container || !live || loading) return undefined;
    let stale = false;
    let built: ChartParts | null = null;
    const cancel = whenIdle(() => {
      void import("lightweight-charts").then(async (lc) => {
        // A task of its own: the library's first evaluation (a microtask of the import)
        // and the chart's build would otherwise be one long task on a slow phone.
        await nextTask();
        if (stale) return;
        built = buildChart(lc, container, dark, priceDecimals);
        built.candles.setData(latest.current.map(candle));
        built.volume.setData(latest.current.map(volumeBar));
        parts.current = built;
        setReady((n) => n + 1);
      });
    }, 200);
    return () => {
      stale = true;
      cancel();
      built?.chart.remove();
      if (parts.current === built) parts.current = null;
      setReady(0);
    };
  }, [live, loading, dark, priceDecimals]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `ready` re-applies the marks to a chart built after the fills arrived.
  useEffect(() => {
    const p = parts.current;
    if (!p) return;
    if (!marksOn) {
      p.markers.setMarkers([]);
      return;
    }
    const span = INTERVAL_MS[interval];
    const list = fills
      .filter((f) => f.symbol === symbol)
      .map((f) => ({
        time: toTime(Math.floor(f.time / span) * span),
        position: f.side === "BUY" ? ("belowBar" as const) : ("aboveBar" as const),
        shape: f.side === "BUY" ? ("arrowUp" as const) : ("arrowDown" as const),
        color: f.side === "BUY" ? UP_COLOR : DOWN_COLOR,
        text: f.side === "BUY" ? "B" : "S",
        size: 1,
      }))
      .sort((a, b) => a.time - b.time);
    p.markers.setMarkers(list);
  }, [fills, symbol, interval, marksOn, ready]);

  const built = ready > 0;
  return (
    <section className="trade-panel trade-chart" aria-label={t("chart.title")} data-testid="kline-chart">
      <div className="trade-chart-toolbar">
        <div className="trade-intervals" role="radiogroup" aria-label={t("chart.interval")}>
          {KLINE_INTERVAL_VALUES.map((i) => (
            // biome-ignore lint/a11y/useSemanticElements: a segmented control of buttons reads better than radio inputs here.
            <button
              key={i}
              type="button"
              role="radio"
              aria-checked={i === interval}
              className={i === interval ? "is-active" : undefined}
              data-testid={`kline-interval-${i}`}
              onClick={() => setInterval(i)}
            >
              {t(`chart.intervals.${i}`)}
            </button>
          ))}
        </div>
        <label className="trade-check">
          <input
            type="checkbox"
            checked={marksOn}
            onChange={(e) => setMarksOn(e.target.checked)}
            data-testid="kline-marks"
          />
          {t("chart.marks")}
        </label>
      </div>
      <div
        className="trade-chart-box"
        ref={box}
        dir="ltr"
        data-live={built ? "true" : undefined}
        onPointerEnter={reach}
        onPointerDown={reach}
        onWheel={reach}
      >
        {!built && !loading ? (
          <KlinePreview
            rows={rows}
            width={size.width}
            height={size.height}
            priceDecimals={priceDecimals}
            colors={previewColors(dark)}
          />
        ) : null}
        {loading ? <span className="trade-chart-loading">{t("chart.loading")}</span> : null}
      </div>
    </section>
  );
}

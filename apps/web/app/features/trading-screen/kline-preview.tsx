import type { Kline } from "@meridian/contracts";

/**
 * The chart's still picture: the latest candles, their volume, the price and time scales
 * and the last price, drawn as SVG in the same places lightweight-charts draws them
 * (6 px a bar from the right edge, the same scale margins and colours). It shows the
 * real history and the live candle while the chart library is not built yet: the
 * library's evaluation, build and first paint are ~0.5 s of main-thread work on a slow
 * phone, so they wait until the visitor reaches for the chart (kline-chart.tsx).
 */

/** lightweight-charts' default bar spacing, px. */
const BAR_SPACING = 6;
const BODY_WIDTH = 4;
const FONT_SIZE = 11;
/** Width of a digit at 11 px in the UI's sans-serif, px (the price scale's width from its labels). */
const DIGIT_WIDTH = 6.6;
const TIME_AXIS_HEIGHT = 26;
/** The candles' and the volume's scale margins (kline-chart.tsx's buildChart). */
const CANDLES_TOP = 0.08;
const CANDLES_BOTTOM = 0.24;
const VOLUME_TOP = 0.8;
/** About one price label per this many px, and one time label per this many. */
const PRICE_LABEL_PX = 30;
const TIME_LABEL_PX = 70;
/** The round spans a time label may mark, ms (the smallest that leaves TIME_LABEL_PX between labels). */
const TIME_SPANS = [15, 30, 60, 120, 180, 360, 720, 1440, 2880, 10080].map((m) => m * 60_000);

export interface PreviewColors {
  text: string;
  grid: string;
  up: string;
  down: string;
  upVolume: string;
  downVolume: string;
}

interface Bar {
  x: number;
  open: number;
  close: number;
  high: number;
  low: number;
  volume: number;
  up: boolean;
}

export interface PreviewLayout {
  plotWidth: number;
  plotHeight: number;
  bars: {
    x: number;
    bodyTop: number;
    bodyHeight: number;
    wickTop: number;
    wickBottom: number;
    up: boolean;
    volumeTop: number;
  }[];
  prices: { y: number; label: string }[];
  times: { x: number; label: string }[];
  last: { y: number; label: string; up: boolean } | null;
}

/** The open candle pushed by the stream, merged into the history (replaces or appends the last bar). */
export function mergeCandle(rows: readonly Kline[], k: Kline): Kline[] {
  const last = rows[rows.length - 1];
  if (!last || k.openTime > last.openTime) return [...rows, k];
  if (k.openTime === last.openTime) return [...rows.slice(0, -1), k];
  return rows as Kline[];
}

/** A round step (1, 2 or 5 times a power of ten) giving about `count` steps over `range`. */
export function niceStep(range: number, count: number): number {
  const raw = range / Math.max(1, count);
  if (!(raw > 0) || !Number.isFinite(raw)) return 1;
  const power = 10 ** Math.floor(Math.log10(raw));
  const unit = raw / power;
  return (unit <= 1 ? 1 : unit <= 2 ? 2 : unit <= 5 ? 5 : 10) * power;
}

const pad2 = (n: number) => String(n).padStart(2, "0");
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** A time scale label in UTC as lightweight-charts writes it: the month on the 1st, the day at midnight, else hh:mm. */
function timeLabel(ms: number): string {
  const d = new Date(ms);
  if (d.getUTCHours() === 0 && d.getUTCMinutes() === 0)
    return d.getUTCDate() === 1 ? (MONTHS[d.getUTCMonth()] as string) : String(d.getUTCDate());
  return `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`;
}

/** Where everything goes for a `width` x `height` box; pure, for the tests. */
export function previewLayout(
  rows: readonly Kline[],
  width: number,
  height: number,
  priceDecimals: number,
): PreviewLayout | null {
  if (rows.length === 0 || width <= 0 || height <= 0) return null;
  const last = rows[rows.length - 1] as Kline;
  const scaleChars = Math.max(...rows.slice(-40).map((k) => (+k.high).toFixed(priceDecimals).length));
  const scaleWidth = Math.ceil(scaleChars * DIGIT_WIDTH + 16);
  const plotWidth = Math.max(0, width - scaleWidth);
  const plotHeight = Math.max(0, height - TIME_AXIS_HEIGHT);
  const count = Math.min(rows.length, Math.max(1, Math.floor(plotWidth / BAR_SPACING)));
  const shown: Bar[] = rows.slice(-count).map((k, i) => ({
    x: plotWidth - (count - i - 0.5) * BAR_SPACING,
    open: +k.open,
    close: +k.close,
    high: +k.high,
    low: +k.low,
    volume: +k.volume,
    up: +k.close >= +k.open,
  }));
  let lo = Math.min(...shown.map((b) => b.low));
  let hi = Math.max(...shown.map((b) => b.high));
  if (hi === lo) {
    hi += 1;
    lo -= 1;
  }
  const top = plotHeight * CANDLES_TOP;
  const span = plotHeight * (1 - CANDLES_TOP - CANDLES_BOTTOM);
  const y = (p: number) => top + ((hi - p) / (hi - lo)) * span;
  const maxVolume = Math.max(...shown.map((b) => b.volume)) || 1;
  const volumeSpan = plotHeight * (1 - VOLUME_TOP);
  const step = niceStep((hi - lo) * (plotHeight / span), plotHeight / PRICE_LABEL_PX);
  const prices: PreviewLayout["prices"] = [];
  for (let p = Math.ceil(lo / step) * step; p <= hi + (top / span) * (hi - lo); p += step) {
    const py = y(p);
    if (py > FONT_SIZE / 2 && py < plotHeight - FONT_SIZE / 2)
      prices.push({ y: py, label: p.toFixed(priceDecimals) });
  }
  const firstShown = rows.length - count;
  const barMs = count > 1 ? (last.openTime - (rows[firstShown] as Kline).openTime) / (count - 1) : 60_000;
  const timeSpan = TIME_SPANS.find((s) => (s / barMs) * BAR_SPACING >= TIME_LABEL_PX) ?? 0;
  const times: PreviewLayout["times"] = [];
  for (let i = 0; i < count; i++) {
    const k = rows[firstShown + i] as Kline;
    const bar = shown[i] as Bar;
    const day = new Date(k.openTime).getUTCDate();
    const round = timeSpan ? k.openTime % timeSpan === 0 : day === 1;
    if (round && bar.x > 20 && bar.x < plotWidth - 20) times.push({ x: bar.x, label: timeLabel(k.openTime) });
  }
  return {
    plotWidth,
    plotHeight,
    bars: shown.map((b) => ({
      x: b.x,
      bodyTop: Math.min(y(b.open), y(b.close)),
      bodyHeight: Math.max(1, Math.abs(y(b.open) - y(b.close))),
      wickTop: y(b.high),
      wickBottom: y(b.low),
      up: b.up,
      volumeTop: plotHeight - (b.volume / maxVolume) * volumeSpan,
    })),
    prices,
    times,
    last: { y: y(+last.close), label: (+last.close).toFixed(priceDecimals), up: +last.close >= +last.open },
  };
}

interface KlinePreviewProps {
  rows: readonly Kline[];
  width: number;
  height: number;
  priceDecimals: number;
  colors: PreviewColors;
}

/** The still chart (decorative: the live chart's canvas is no more readable to assistive tech). */
export function KlinePreview({ rows, width, height, priceDecimals, colors }: KlinePreviewProps) {
  const layout = previewLayout(rows, width, height, priceDecimals);
  if (!layout) return null;
  const { plotWidth, plotHeight, bars, prices, times, last } = layout;
  const half = BODY_WIDTH / 2;
  return (
    <svg
      className="trade-chart-preview"
      width={width}
      height={height}
      viewBox={`0 0 ${width} ${height}`}
      aria-hidden="true"
      fontSize={FONT_SIZE}
      data-testid="kline-preview"
    >
      <g stroke={colors.grid} strokeWidth={1}>
        {prices.map((p) => (
          <line
            key={`p${p.label}`}
            x1={0}
            x2={plotWidth}
            y1={Math.round(p.y) + 0.5}
            y2={Math.round(p.y) + 0.5}
          />
        ))}
        {times.map((t) => (
          <line
            key={`t${t.x}`}
            x1={Math.round(t.x) + 0.5}
            x2={Math.round(t.x) + 0.5}
            y1={0}
            y2={plotHeight}
          />
        ))}
        <line x1={plotWidth + 0.5} x2={plotWidth + 0.5} y1={0} y2={height} />
        <line x1={0} x2={width} y1={plotHeight + 0.5} y2={plotHeight + 0.5} />
      </g>
      {bars.map((b) => (
        <g key={b.x}>
          <rect
            x={b.x - BAR_SPACING / 2 + 0.5}
            y={b.volumeTop}
            width={BAR_SPACING - 1}
            height={plotHeight - b.volumeTop}
            fill={b.up ? colors.upVolume : colors.downVolume}
          />
          <line x1={b.x} x2={b.x} y1={b.wickTop} y2={b.wickBottom} stroke={b.up ? colors.up : colors.down} />
          <rect
            x={b.x - half}
            y={b.bodyTop}
            width={BODY_WIDTH}
            height={b.bodyHeight}
            fill={b.up ? colors.up : colors.down}
          />
        </g>
      ))}
      <g fill={colors.text}>
        {prices.map((p) => (
          <text key={`p${p.label}`} x={plotWidth + 8} y={p.y} dominantBaseline="middle">
            {p.label}
          </text>
        ))}
        {times.map((t) => (
          <text
            key={`t${t.x}`}
            x={t.x}
            y={plotHeight + TIME_AXIS_HEIGHT / 2}
            dominantBaseline="middle"
            textAnchor="middle"
          >
            {t.label}
          </text>
        ))}
      </g>
      {last ? (
        <g>
          <line
            x1={0}
            x2={plotWidth}
            y1={Math.round(last.y) + 0.5}
            y2={Math.round(last.y) + 0.5}
            stroke={last.up ? colors.up : colors.down}
            strokeDasharray="2 2"
          />
          <rect
            x={plotWidth}
            y={last.y - 9}
            width={width - plotWidth}
            height={18}
            fill={last.up ? colors.up : colors.down}
          />
          <text x={plotWidth + 8} y={last.y} dominantBaseline="middle" fill="#ffffff">
            {last.label}
          </text>
        </g>
      ) : null}
    </svg>
  );
}

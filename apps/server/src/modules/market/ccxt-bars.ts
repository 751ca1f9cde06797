import { type Bar, type InstrumentSpec, notionalMinor, parseScaled } from "@meridian/domain";

/** One OHLCV row as the exchange printed it (decimal strings), opening at `time`. */
export interface FetchedBar {
  readonly time: number;
  readonly open: string;
  readonly high: string;
  readonly low: string;
  readonly close: string;
  readonly volume: string;
}

/**
 * A decimal as a whole count of `unit` (at `decimals` scale), rounded as asked; 0 for a
 * malformed or negative value. Exchange prices are on their tick already; sizes below a lot
 * round down to 0 and are left out by the caller.
 */
export function toUnits(
  text: string,
  decimals: number,
  unit: bigint,
  round: "up" | "down" | "nearest",
): number {
  const p = parseScaled(text, decimals);
  if (p === null || p.scaled < 0n) return 0;
  const dropped = p.truncated;
  let q = p.scaled / unit;
  const rest = p.scaled % unit;
  if (round === "up" && (rest > 0n || dropped)) q += 1n;
  else if (round === "nearest" && rest * 2n >= unit) q += 1n;
  return Number(q);
}

/** Powers of ten exact as doubles (10^22 is the last). */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * `toUnits` of a number as ccxt parsed it (the double nearest the exchange's decimal),
 * without going through its decimal string: a book update has a hundred of them and the
 * string round trip was a fifth of the mirror's CPU in bench:feed. Exact: `n` is taken
 * as `r / 10^decimals` only when that quotient is the same double, i.e. when `n`'s
 * shortest decimal (what `text(n)` gives) has at most `decimals` digits after the point;
 * anything else (more digits, negative, huge, NaN) goes through `toUnits(text(n))`.
 */
export function numberToUnits(
  n: number,
  decimals: number,
  unit: bigint,
  round: "up" | "down" | "nearest",
  text: (n: number) => string,
): number {
  const scale = POW10[decimals];
  const u = Number(unit);
  if (scale !== undefined && n >= 0 && u > 0) {
    const r = Math.round(n * scale);
    if (r <= Number.MAX_SAFE_INTEGER && r / scale === n) {
      const q = Math.floor(r / u);
      const rest = r - q * u;
      if (round === "up" && rest > 0) return q + 1;
      if (round === "nearest" && rest * 2 >= u) return q + 1;
      return q;
    }
  }
  return toUnits(text(n), decimals, unit, round);
}

/**
 * The exchange's candles of several intervals as one history for the market's series:
 * the finest interval covers the most recent stretch, each coarser one the time before it,
 * every boundary aligned to the coarser interval, so each candle of every interval is built
 * from whole bars that do not overlap (`CandleSeries` takes a bar only in series at least
 * as long). Oldest first.
 */
export function chainBars(
  spec: InstrumentSpec,
  byInterval: ReadonlyMap<number, readonly FetchedBar[]>,
): Bar[] {
  const intervals = [...byInterval.keys()].sort((a, b) => a - b);
  let kept: Bar[] = [];
  for (const ms of intervals) {
    const rows = [...(byInterval.get(ms) ?? [])].sort((a, b) => a.time - b.time);
    const earliest = kept[0]?.time;
    const boundary = earliest === undefined ? Number.POSITIVE_INFINITY : Math.ceil(earliest / ms) * ms;
    const coarse: Bar[] = [];
    for (const r of rows) {
      if (r.time % ms !== 0 || r.time + ms > boundary) continue;
      const bar = barOf(spec, r, ms);
      if (bar !== undefined) coarse.push(bar);
    }
    // Without coarse bars (the call failed) the finer stretch keeps its own start.
    if (coarse.length === 0) continue;
    kept = [...coarse, ...kept.filter((b) => b.time >= boundary)];
  }
  return kept;
}

function barOf(spec: InstrumentSpec, r: FetchedBar, span: number): Bar | undefined {
  const px = (t: string) => toUnits(t, spec.priceDecimals, spec.tickUnits, "nearest");
  const open = px(r.open);
  const high = px(r.high);
  const low = px(r.low);
  const close = px(r.close);
  if (open <= 0 || high <= 0 || low <= 0 || close <= 0) return undefined;
  const volume = toUnits(r.volume, spec.qtyDecimals, spec.lotUnits, "down");
  return {
    time: r.time,
    span,
    open,
    high: Math.max(high, open, close),
    low: Math.min(low, open, close),
    close,
    volume,
    quoteVolume: notionalMinor(spec, close, volume),
    trades: 0,
  };
}

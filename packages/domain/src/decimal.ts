/**
 * Exact decimal strings <-> scaled bigints. Parsing is by string, never through
 * parseFloat, so "65000.10" at scale 2 is exactly 6500010n.
 */
const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

export interface ParsedDecimal {
  /** The value times 10^scale. */
  readonly scaled: bigint;
  /** True when digits beyond `scale` were non-zero (the value is not representable). */
  readonly truncated: boolean;
}

/** Parses a plain decimal ("12", "-0.5", "65000.10") at a fixed scale; null if malformed. */
export function parseScaled(text: string, scale: number): ParsedDecimal | null {
  const m = DECIMAL.exec(text);
  if (m === null) return null;
  const sign = m[1] === "-" ? -1n : 1n;
  const whole = m[2] ?? "0";
  const frac = m[3] ?? "";
  const kept = frac.slice(0, scale).padEnd(scale, "0");
  const dropped = frac.slice(scale);
  const scaled = sign * BigInt(whole + kept);
  return { scaled, truncated: /[1-9]/.test(dropped) };
}

/** Number of digits after the point in a plain decimal string ("0.0100" -> 4). */
export function decimalsOf(text: string): number {
  const dot = text.indexOf(".");
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** Formats a scaled bigint as a plain decimal with exactly `scale` fraction digits. */
export function formatScaled(scaled: bigint, scale: number): string {
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale);
  return (negative ? "-" : "") + (scale === 0 ? whole : `${whole}.${frac}`);
}

export const pow10 = (n: number): bigint => 10n ** BigInt(n);

/** Ceiling division for non-negative numerators and positive divisors. */
export function ceilDiv(a: bigint, b: bigint): bigint {
  return (a + b - 1n) / b;
}

// Arithmetic on decimal strings: money and quantities stay strings end to end, and these
// go through scaled bigints, never `parseFloat`. Results are plain decimals ("12.5",
// "-0.001"), trailing zeros trimmed unless a function says it pads.

/** Looser than DECIMAL above: "12." and ".5" while a user types. */
const LOOSE_DECIMAL = /^(-?)(\d*)(?:\.(\d*))?$/;

interface Scaled {
  value: bigint;
  scale: number;
}

/** True for a plain decimal such as "12", "0.5", "-3.25" (also "12." and ".5" while typing). */
export function isDecimal(text: string): boolean {
  const m = LOOSE_DECIMAL.exec(text.trim());
  return m !== null && ((m[2] ?? "") !== "" || (m[3] ?? "") !== "");
}

function parse(text: string): Scaled {
  const m = LOOSE_DECIMAL.exec(text.trim());
  if (m === null) return { value: 0n, scale: 0 };
  const frac = m[3] ?? "";
  const digits = `${m[2] ?? ""}${frac}` || "0";
  const value = BigInt(digits);
  return { value: m[1] === "-" ? -value : value, scale: frac.length };
}

function rescale(s: Scaled, scale: number): bigint {
  if (scale >= s.scale) return s.value * 10n ** BigInt(scale - s.scale);
  // Toward negative infinity, so floors stay floors for negative values too.
  const div = 10n ** BigInt(s.scale - scale);
  const q = s.value / div;
  return s.value < 0n && q * div !== s.value ? q - 1n : q;
}

function render(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, "0");
  const whole = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  const out = frac === "" ? whole : `${whole}.${frac}`;
  return negative && out !== "0" ? `-${out}` : out;
}

export function compare(a: string, b: string): -1 | 0 | 1 {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  const d = rescale(x, scale) - rescale(y, scale);
  return d < 0n ? -1 : d > 0n ? 1 : 0;
}

export const isZero = (a: string): boolean => parse(a).value === 0n;
export const isPositive = (a: string): boolean => parse(a).value > 0n;

export function add(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  return render(rescale(x, scale) + rescale(y, scale), scale);
}

export function sub(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  const scale = Math.max(x.scale, y.scale);
  return render(rescale(x, scale) - rescale(y, scale), scale);
}

/** Exact product. */
export function mul(a: string, b: string): string {
  const x = parse(a);
  const y = parse(b);
  return render(x.value * y.value, x.scale + y.scale);
}

/** Product rounded down to `scale` digits. */
export function mulDown(a: string, b: string, scale: number): string {
  const x = parse(a);
  const y = parse(b);
  return render(rescale({ value: x.value * y.value, scale: x.scale + y.scale }, scale), scale);
}

/** Quotient rounded down to `scale` digits; "0" when dividing by zero. */
export function divDown(a: string, b: string, scale: number): string {
  const x = parse(a);
  const y = parse(b);
  if (y.value === 0n) return "0";
  // a/b = (xv/10^xs) / (yv/10^ys); scale the numerator so the integer quotient has `scale` digits.
  const shift = scale + y.scale - x.scale;
  let num = x.value;
  let den = y.value;
  if (shift >= 0) num *= 10n ** BigInt(shift);
  else den *= 10n ** BigInt(-shift);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  let q = num / den;
  if (num < 0n && q * den !== num) q -= 1n;
  return render(q, scale);
}

/** |n / d| rounded half away from zero, signed as n / d (d non-zero). */
function divRoundHalfUp(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const an = n < 0n ? -n : n;
  const ad = d < 0n ? -d : d;
  const q = (2n * an + ad) / (2n * ad);
  return negative ? -q : q;
}

/** Quotient rounded half away from zero to `scale` digits; "0" when dividing by zero. */
export function divHalfUp(a: string, b: string, scale: number): string {
  const x = parse(a);
  const y = parse(b);
  if (y.value === 0n) return "0";
  const shift = scale + y.scale - x.scale;
  const num = shift >= 0 ? x.value * 10n ** BigInt(shift) : x.value;
  const den = shift >= 0 ? y.value : y.value * 10n ** BigInt(-shift);
  return render(divRoundHalfUp(num, den), scale);
}

/**
 * The value with exactly `decimals` fraction digits, rounded half away from zero: what
 * `Number(value).toFixed(decimals)` means, without the float ("0.125", 2 -> "0.13").
 */
export function toFixedHalfUp(value: string, decimals: number): string {
  const x = parse(value);
  const v =
    decimals >= x.scale
      ? x.value * 10n ** BigInt(decimals - x.scale)
      : divRoundHalfUp(x.value, 10n ** BigInt(x.scale - decimals));
  return toFixedDown(render(v, decimals), decimals);
}

/** The value with its sign flipped ("0" stays "0"). */
export function negate(value: string): string {
  const x = parse(value);
  return render(-x.value, x.scale);
}

/** The largest multiple of `step` not above `value` ("97012.37", "10" -> "97010"). */
export function floorToStep(value: string, step: string): string {
  const x = parse(value);
  const s = parse(step);
  if (s.value <= 0n) return render(x.value, x.scale);
  const scale = Math.max(x.scale, s.scale);
  const v = rescale(x, scale);
  const st = rescale(s, scale);
  let q = v / st;
  if (v < 0n && q * st !== v) q -= 1n;
  return render(q * st, scale);
}

/** The smallest multiple of `step` not below `value`. */
export function ceilToStep(value: string, step: string): string {
  const floored = floorToStep(value, step);
  return compare(floored, value) === 0 ? floored : add(floored, step);
}

/** `percent` (0-100, integer) of `value`, rounded down to a multiple of `step`. */
export function percentOf(value: string, percent: number, step: string): string {
  const p = Math.max(0, Math.min(100, Math.round(percent)));
  return floorToStep(divDown(mul(value, String(p)), "100", Math.max(decimalsOf(step), 8) + 2), step);
}

/** The value with exactly `decimals` fraction digits, cut (not rounded) beyond them. */
export function toFixedDown(value: string, decimals: number): string {
  const x = parse(value);
  // Cut toward zero: "-0.019" at 2 digits shows "-0.01", never "-0.02".
  const magnitude = rescale({ value: x.value < 0n ? -x.value : x.value, scale: x.scale }, decimals);
  const v = x.value < 0n ? -magnitude : magnitude;
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(decimals + 1, "0");
  const whole = digits.slice(0, digits.length - decimals);
  const frac = digits.slice(digits.length - decimals);
  const out = decimals === 0 ? whole : `${whole}.${frac}`;
  return negative && v !== 0n ? `-${out}` : out;
}

/**
 * Display text for a decimal string: fixed `decimals` (cut, not rounded), thousands
 * grouped. Intl formats the string itself (no float in between).
 */
export function formatDecimal(value: string, decimals: number, options: { group?: boolean } = {}): string {
  const fixed = toFixedDown(value, decimals);
  if (options.group === false) return fixed;
  const negative = fixed.startsWith("-");
  const body = negative ? fixed.slice(1) : fixed;
  const [whole = "0", frac] = body.split(".");
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return `${negative ? "-" : ""}${grouped}${frac === undefined ? "" : `.${frac}`}`;
}

/** Large figures shortened for tickers: 1,234,567.8 -> "1.23M" (display only). */
export function formatCompact(value: string): string {
  const whole = toFixedDown(value, 0).replace("-", "");
  const units: Array<[number, string]> = [
    [12, "T"],
    [9, "B"],
    [6, "M"],
    [3, "K"],
  ];
  for (const [digits, suffix] of units) {
    if (whole.length > digits)
      return `${formatDecimal(divDown(value, `1${"0".repeat(digits)}`, 2), 2)}${suffix}`;
  }
  return formatDecimal(value, 2);
}

/** Strips what cannot be part of a decimal and limits fraction digits, for inputs as typed. */
export function sanitizeDecimalInput(text: string, maxDecimals: number): string {
  let cleaned = text.replace(/,/g, ".").replace(/[^\d.]/g, "");
  const dot = cleaned.indexOf(".");
  if (dot >= 0) {
    cleaned = `${cleaned.slice(0, dot + 1)}${cleaned.slice(dot + 1).replace(/\./g, "")}`;
    if (maxDecimals === 0) cleaned = cleaned.slice(0, dot);
    else cleaned = cleaned.slice(0, dot + 1 + maxDecimals);
  }
  return cleaned;
}

/** A typed value made canonical for the API ("12." -> "12", ".5" -> "0.5", "007" -> "7"). */
export function normalizeDecimal(text: string): string {
  if (!isDecimal(text)) return "";
  const s = parse(text);
  return render(s.value, s.scale);
}

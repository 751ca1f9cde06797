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

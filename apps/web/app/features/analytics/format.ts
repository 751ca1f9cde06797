/** Display helpers of the dashboard (numbers in the page's locale). */
export function formatCount(locale: string, n: number): string {
  return new Intl.NumberFormat(locale).format(n);
}

export function formatPercent(locale: string, ratio: number, digits = 1): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: digits }).format(ratio);
}

/**
 * A duration as the `duration.*` key that shows it and its values: `seconds` {s: 12},
 * `minutes` {m: 1, s: "05"}, `hours` {h: 1, m: "02"}. The units are words of the page's
 * language, so the caller translates.
 */
export function durationParts(ms: number): {
  key: "seconds" | "minutes" | "hours";
  values: Record<string, string | number>;
} {
  const s = Math.round(ms / 1000);
  if (s < 60) return { key: "seconds", values: { s } };
  const m = Math.floor(s / 60);
  if (m < 60) return { key: "minutes", values: { m, s: String(s % 60).padStart(2, "0") } };
  return { key: "hours", values: { h: Math.floor(m / 60), m: String(m % 60).padStart(2, "0") } };
}

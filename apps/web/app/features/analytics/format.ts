/** Display helpers of the dashboard (numbers in the page's locale). */
export function formatCount(locale: string, n: number): string {
  return new Intl.NumberFormat(locale).format(n);
}

export function formatPercent(locale: string, ratio: number, digits = 1): string {
  return new Intl.NumberFormat(locale, { style: "percent", maximumFractionDigits: digits }).format(ratio);
}

/** `1m 05s`, `12s`, `1h 02m`. */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, "0")}s`;
  return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, "0")}m`;
}

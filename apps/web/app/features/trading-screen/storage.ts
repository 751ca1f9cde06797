/**
 * Local storage keys the trade screens own (docs/product.md §3 names them; the spelling is
 * ours). Every access is guarded: storage may be blocked or full, and the server has none.
 */
export const StorageKey = {
  KLINE_INTERVAL: "klineInterval",
  KLINE_MARKS: "klineMarks",
  SKIP_GUIDE: "skipGuide",
  /** Don't-show-again tips, one key each. */
  TIP_MARKET_SLIPPAGE: "tipMarketSlippage",
  TIP_LIMIT_DEVIATION: "tipLimitDeviation",
} as const;
export type StorageKeyValue = (typeof StorageKey)[keyof typeof StorageKey];

export function readStored(key: StorageKeyValue): string | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

export function writeStored(key: StorageKeyValue, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // The choice holds for this page only.
  }
}

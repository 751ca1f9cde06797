/**
 * Integer scales shared by the derivatives core.
 *
 * - USDT amounts are bigint minor units of the paper ledger (8 decimals, `ASSET_DECIMALS`).
 * - Maintenance margin and fee rates are integer parts per million (`PPM`): 0.4 % = 4000.
 * - Funding and borrow-interest rates are integers of 1e-8 (`E8`), the precision Binance
 *   publishes them in ("fundingRate": "0.00010000" = 10_000): ppm would round a typical
 *   funding rate such as 0.00003421 away.
 */
export const PPM = 1_000_000n;
export const E8 = 100_000_000n;
export const USDT = "USDT";
export const USDT_DECIMALS = 8;
/** One whole USDT in minor units. */
export const ONE_USDT = 100_000_000n;

/** Floor division for any sign of `a`; `b` must be positive. */
export function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a < 0n && q * b !== a ? q - 1n : q;
}

/** Ceiling division for any sign of `a`; `b` must be positive. */
export function ceilDivSigned(a: bigint, b: bigint): bigint {
  return -floorDiv(-a, b);
}

export function clampBig(x: bigint, lo: bigint, hi: bigint): bigint {
  return x < lo ? lo : x > hi ? hi : x;
}

export const absBig = (x: bigint): bigint => (x < 0n ? -x : x);
export const minBig = (a: bigint, b: bigint): bigint => (a < b ? a : b);
export const maxBig = (a: bigint, b: bigint): bigint => (a > b ? a : b);

/** Whole USDT to minor units ("50000" -> 5_000_000_000_000n). */
export const usdt = (whole: number | bigint | string): bigint => BigInt(whole) * ONE_USDT;

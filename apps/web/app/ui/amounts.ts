import { assetDecimals, compare, formatDecimal, isPositive, normalizeDecimal } from "@meridian/domain";

/** A figure grouped, up to 8 decimals, trailing zeros dropped ("1,000", "0.0125"). */
export const trimDecimal = (v: string) => formatDecimal(v, 8).replace(/\.?0+$/, "");

/** USDT is shown in cents across the site (futures wallet, asset totals, margin levels). */
const USDT_DECIMALS = 2;

/**
 * An amount of `asset` as the site shows it: grouped, USDT in cents (cut, never rounded
 * up: an amount shown as available is never more than there is), other assets down to
 * what they hold ("50,000.00", "0.0125").
 */
export function assetAmount(asset: string, value: string): string {
  return asset === "USDT" ? formatDecimal(value, USDT_DECIMALS) : trimDecimal(value);
}

/**
 * A balance in a table column: grouped, USDT in cents, other assets at the ledger's
 * precision of that asset (8 for BTC, 6 for XRP), so the column's figures line up
 * ("5,996.88", "0.49000000").
 */
export function balanceAmount(asset: string, value: string): string {
  return asset === "USDT"
    ? formatDecimal(value, USDT_DECIMALS)
    : formatDecimal(value, assetDecimals(asset) ?? 8);
}

/**
 * What a transfer dialog starts with when a caller suggests an amount (the futures
 * shortfall): the suggestion, at most what may leave the source wallet; nothing while
 * that is unknown or when the wallet is empty.
 */
export function transferPrefill(suggested: string | undefined, max: string | null): string {
  if (suggested === undefined || max === null || !isPositive(max)) return "";
  const wanted = normalizeDecimal(suggested);
  if (wanted === "" || !isPositive(wanted)) return "";
  return compare(wanted, max) > 0 ? normalizeDecimal(max) : wanted;
}

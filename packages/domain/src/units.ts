/**
 * Nominal (branded) types. At the edges prices and quantities are exact decimal
 * strings; inside the engine they are integer multiples of the instrument's tick
 * and lot, held in a JS number that the boundary proves is a safe integer.
 */
declare const brand: unique symbol;
type Brand<T, B extends string> = T & { readonly [brand]: B };

/** A price as an exact decimal string, e.g. "65000.10". */
export type Price = Brand<string, "Price">;
/** A base-asset quantity as an exact decimal string, e.g. "0.00125". */
export type Quantity = Brand<string, "Quantity">;
/** A price as an integer count of the instrument's tick size. */
export type Ticks = Brand<number, "Ticks">;
/** A quantity as an integer count of the instrument's lot size. */
export type Lots = Brand<number, "Lots">;
/** An asset code, e.g. "BTC". */
export type Asset = Brand<string, "Asset">;
/** An instrument symbol, e.g. "BTCUSDT". */
export type Symbol = Brand<string, "Symbol">;
/** Order identifier chosen by the caller (a database id): a safe integer. */
export type OrderId = Brand<number, "OrderId">;
/** Account identifier chosen by the caller: a safe integer. */
export type AccountId = Brand<number, "AccountId">;

export const asPrice = (s: string): Price => s as Price;
export const asQuantity = (s: string): Quantity => s as Quantity;
export const asTicks = (n: number): Ticks => n as Ticks;
export const asLots = (n: number): Lots => n as Lots;
export const asAsset = (s: string): Asset => s as Asset;
export const asSymbol = (s: string): Symbol => s as Symbol;
export const asOrderId = (n: number): OrderId => n as OrderId;
export const asAccountId = (n: number): AccountId => n as AccountId;

/** 2^53 - 1: every tick, lot and level total inside the engine stays at or below this. */
export const MAX_SAFE = Number.MAX_SAFE_INTEGER;

export function isSafeCount(n: number): boolean {
  return Number.isSafeInteger(n) && n >= 0;
}

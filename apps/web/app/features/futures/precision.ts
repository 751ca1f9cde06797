import type { FuturesMark } from "@meridian/contracts";
import { decimalsOf, formatDecimal } from "@meridian/domain";

/** USDT amounts (PnL, margin, funding) are shown in cents, as the large exchanges do. */
const USDT_DECIMALS = 2;

/**
 * Display formatters in each contract's precision: prices at its tick (BTCUSDT 0.1 ->
 * "97,036.8", not "97036.800"), sizes at its step, USDT amounts in cents ("-1.23",
 * not "-1.23800000"), fees down to what they hold (at most 8 decimals). A symbol the
 * marks do not know yet is shown as sent.
 */
export function contractFormat(marks: Readonly<Record<string, FuturesMark | undefined>>) {
  const digits = (v: string) => decimalsOf(v.replace(/^-/, ""));
  return {
    price: (symbol: string, v: string | null | undefined) => {
      if (v === null || v === undefined || v === "") return "--";
      const tick = marks[symbol]?.tickSize;
      return formatDecimal(v, tick ? decimalsOf(tick) : digits(v));
    },
    qty: (symbol: string, v: string) => {
      const step = marks[symbol]?.stepSize;
      return formatDecimal(v, step ? decimalsOf(step) : digits(v), { group: false });
    },
    usdt: (v: string) => formatDecimal(v, USDT_DECIMALS),
    fee: (v: string) => formatDecimal(v, Math.min(8, Math.max(USDT_DECIMALS, trimmedDecimals(v)))),
  };
}

export type ContractFormat = ReturnType<typeof contractFormat>;

function trimmedDecimals(v: string): number {
  const frac = v.split(".")[1] ?? "";
  return frac.replace(/0+$/, "").length;
}

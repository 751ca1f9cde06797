import type { FuturesMark } from "@meridian/contracts";
import { assetDecimals, coinPerpContract, decimalsOf, formatDecimal } from "@meridian/domain";

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
  const coinOf = (symbol: string) => coinPerpContract(symbol)?.marginAsset ?? "USDT";
  return {
    /** The asset a contract's margin, PnL and fees are in (USDT, or a coin-M contract's coin). */
    marginCoin: coinOf,
    /**
     * A margin, PnL or funding amount of `symbol`: USDT in cents as a bare figure (the
     * USDT-M tables' columns), a coin-M contract's coin at its ledger decimals, named
     * ("0.00181818 BTC").
     */
    money: (symbol: string, v: string) => {
      const coin = coinOf(symbol);
      return coin === "USDT" ? marginAmount(coin, v) : `${marginAmount(coin, v)} ${coin}`;
    },
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
    /** A size: a coin-M contract's in whole contracts with the unit's word, else at the step. */
    size: (symbol: string, v: string, contracts: string) => {
      const step = marks[symbol]?.stepSize;
      const text = formatDecimal(v, step ? decimalsOf(step) : digits(v), { group: false });
      return coinOf(symbol) === "USDT" ? text : `${text} ${contracts}`;
    },
  };
}

export type ContractFormat = ReturnType<typeof contractFormat>;

/** An amount of a futures wallet's asset: USDT in cents, a coin at its ledger decimals (BTC 8, XRP 6). */
export function marginAmount(asset: string, v: string): string {
  return formatDecimal(v, asset === "USDT" ? USDT_DECIMALS : (assetDecimals(asset) ?? 8));
}

function trimmedDecimals(v: string): number {
  const frac = v.split(".")[1] ?? "";
  return frac.replace(/0+$/, "").length;
}

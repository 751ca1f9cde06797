import { futuresFeeRates, vipTier } from "@meridian/domain";
import { z } from "zod";
import { BitgetCode, BitgetError } from "./bitget.ts";
import { lower, symbol } from "./common.ts";
import { ppmRate } from "./public.ts";
import type { V2Router } from "./v2-scope.ts";

/**
 * `common/trade-rate` (ccxt fetchTradingFee): the maker and taker rates the key's owner
 * pays at its VIP level, the same schedule paper and futures fills are charged by
 * (spot and margin share the spot rates; `mix` the USDT-M rates).
 */
export function registerTradeRate(r: V2Router, known: (symbol: string) => boolean): void {
  r.get("/v2/common/trade-rate", { perm: "read", limit: "query" }, ({ query }, c) => {
    const q = z.object({ symbol, businessType: lower(["spot", "margin", "mix"]) }).parse(query);
    if (!known(q.symbol))
      throw new BitgetError(BitgetCode.SYMBOL_UNKNOWN, `Parameter ${q.symbol} does not exist`);
    const rates =
      q.businessType === "mix"
        ? futuresFeeRates(c.vipLevel)
        : { makerPpm: vipTier(c.vipLevel).makerPpm, takerPpm: vipTier(c.vipLevel).takerPpm };
    return { makerFeeRate: ppmRate(rates.makerPpm), takerFeeRate: ppmRate(rates.takerPpm) };
  });
}

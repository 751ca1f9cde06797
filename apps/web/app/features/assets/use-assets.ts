import type { PaperBalance, Ticker } from "@meridian/contracts";
import { add, isPositive, mul } from "@meridian/domain";
import { useCallback, useEffect, useState } from "react";
import { marketApi, paperApi } from "../../api/paper.ts";
import { useSimulation } from "../../lib/simulation-provider.tsx";
import type { TradeAccess } from "../trading-screen/panel-parts.tsx";

export interface ValuedBalance extends PaperBalance {
  /** Total valued in USDT at the last price ("" when the market has no USDT pair). */
  usdt: string;
}

/** A balance's value in USDT from the tickers (USDT itself is worth one). */
export function valueInUsdt(balance: PaperBalance, tickers: readonly Ticker[]): string {
  if (balance.asset === "USDT") return balance.total;
  const ticker = tickers.find((t) => t.symbol === `${balance.asset}USDT`);
  return ticker && isPositive(ticker.lastPrice) ? mul(balance.total, ticker.lastPrice) : "";
}

/**
 * The paper account's balances valued in USDT, for the asset pages. Loads only for a
 * logged-in user in simulation mode; `reload` after a top-up or reset. A failed read is
 * kept in `error` (for `LoadError`, whose retry is `reload`).
 */
export function useAssets(loggedIn: boolean) {
  const sim = useSimulation();
  const access: TradeAccess = !loggedIn ? "guest" : sim.active ? "ready" : "needs-sim";
  const [balances, setBalances] = useState<ValuedBalance[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const apply = useCallback(async (list: PaperBalance[]) => {
    const tickers = await marketApi.tickers().catch(() => [] as Ticker[]);
    setBalances(
      list
        .map((b) => ({ ...b, usdt: valueInUsdt(b, tickers) }))
        .sort((a, b) => a.asset.localeCompare(b.asset)),
    );
    setLoaded(true);
  }, []);

  const reload = useCallback(async () => {
    try {
      await apply(await paperApi.balances());
      setError(null);
    } catch (e) {
      setError(e);
    }
  }, [apply]);

  useEffect(() => {
    if (access === "ready") void reload();
  }, [access, reload]);

  const totalUsdt = balances.reduce((sum, b) => (b.usdt === "" ? sum : add(sum, b.usdt)), "0");
  /** The first read is in flight: show a placeholder, not a balance of 0 and an empty table. */
  const loading = access === "ready" && !loaded && error === null;
  return { access, balances, loaded, loading, error, totalUsdt, reload, apply };
}

import type { FuturesAccount, MarginAccountView, Ticker } from "@meridian/contracts";
import { add } from "@meridian/domain";
import { futuresApi } from "../../api/futures.ts";
import { marginApi } from "../../api/margin.ts";
import { marketApi } from "../../api/paper.ts";
import { firstError, useApiData } from "../../lib/use-api-data.ts";
import { valueInUsdt } from "./use-assets.ts";

/**
 * What the futures wallet is worth in USDT: the cross wallet, the margin set aside in
 * isolated positions, and the unrealised PnL of every open position (cross and isolated).
 * `marginBalance` alone leaves out isolated margin and isolated PnL.
 */
export function futuresEquity(a: FuturesAccount): string {
  return add(add(a.wallet, a.isolatedMargin), a.unrealisedPnl);
}

/**
 * Every futures wallet's value in USDT: the USDT-M wallet's equity, and each coin-M
 * wallet's equity (in its coin) at the coin's last USDT price; a coin without a price is
 * left out.
 */
export function futuresWalletsValue(wallets: readonly FuturesAccount[], tickers: readonly Ticker[]): string {
  return wallets.reduce((sum, a) => {
    const equity = futuresEquity(a);
    const usdt =
      a.marginCoin === "USDT"
        ? equity
        : valueInUsdt({ asset: a.marginCoin, available: equity, held: "0", total: equity }, tickers);
    return usdt === "" ? sum : add(sum, usdt);
  }, "0");
}

/** The margin accounts' net value in USDT: cross and every isolated pair, debt and interest deducted. */
export function marginNet(cross: MarginAccountView, isolated: readonly MarginAccountView[]): string {
  return isolated.reduce((sum, a) => add(sum, a.netAsset), cross.netAsset);
}

/**
 * The estimated balance in USDT: the sum of every wallet's value (null: not loaded, or
 * failed to load, and left out). The page shows it in USDT and in the chosen fiat.
 */
export function estimatedBalance(values: {
  spot: string;
  futures: string | null;
  margin: string | null;
}): string {
  return [values.futures, values.margin].reduce<string>(
    (sum, v) => (v === null ? sum : add(sum, v)),
    values.spot,
  );
}

const loadFutures = () =>
  Promise.all([futuresApi.wallets(), marketApi.tickers().catch(() => [] as Ticker[])]).then(
    ([wallets, tickers]) => futuresWalletsValue(wallets, tickers),
  );
const loadMargin = () =>
  Promise.all([marginApi.account({ mode: "cross" }), marginApi.isolated()]).then(([cross, isolated]) =>
    marginNet(cross, isolated),
  );

/**
 * Every futures wallet's value (with unrealised PnL, coin wallets at their USDT price) and the margin accounts' net value, in
 * USDT (null until read), with the failure of either read and a retry for `LoadError`.
 */
export function useAccountValues(enabled: boolean): {
  futures: string | null;
  margin: string | null;
  error: unknown;
  reload: () => void;
} {
  const futures = useApiData(loadFutures, enabled);
  const margin = useApiData(loadMargin, enabled);
  const { reload: reloadFutures } = futures;
  const { reload: reloadMargin } = margin;
  return {
    futures: futures.data ?? null,
    margin: margin.data ?? null,
    error: firstError(futures, margin),
    reload: () => {
      void reloadFutures();
      void reloadMargin();
    },
  };
}

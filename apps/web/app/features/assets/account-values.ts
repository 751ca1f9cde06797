import type { FuturesAccount, MarginAccountView } from "@meridian/contracts";
import { add } from "@meridian/domain";
import { useEffect, useState } from "react";
import { futuresApi } from "../futures/api.ts";
import { marginApi } from "../margin/api.ts";

/**
 * What the futures wallet is worth in USDT: the cross wallet, the margin set aside in
 * isolated positions, and the unrealised PnL of every open position (cross and isolated).
 * `marginBalance` alone leaves out isolated margin and isolated PnL.
 */
export function futuresEquity(a: FuturesAccount): string {
  return add(add(a.wallet, a.isolatedMargin), a.unrealisedPnl);
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

/** The futures wallet's value (with unrealised PnL) and the margin accounts' net value, in USDT. */
export function useAccountValues(enabled: boolean): { futures: string | null; margin: string | null } {
  const [futures, setFutures] = useState<string | null>(null);
  const [margin, setMargin] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    void futuresApi.account().then(
      (a) => setFutures(futuresEquity(a)),
      () => {},
    );
    void Promise.all([marginApi.account({ mode: "cross" }), marginApi.isolated()]).then(
      ([cross, isolated]) => setMargin(marginNet(cross, isolated)),
      () => {},
    );
  }, [enabled]);
  return { futures, margin };
}

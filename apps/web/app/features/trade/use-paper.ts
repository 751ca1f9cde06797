import type { PaperBalance, PaperFees, PaperOrder, PaperTrade, UserStreamPush } from "@meridian/contracts";
import { PaperPath } from "@meridian/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { paperApi } from "../../api/paper.ts";
import { useLiveStream, useOrderLists } from "../trading-screen/use-account-stream.ts";

const LIST_LIMIT = 100;

export interface PaperState {
  ready: boolean;
  balances: PaperBalance[];
  openOrders: PaperOrder[];
  history: PaperOrder[];
  trades: PaperTrade[];
  fees: PaperFees | null;
  /** The lists are being read for the first time (show a placeholder, not "no orders"). */
  loading: boolean;
  /** The last read's failure (null once one succeeds): shown with a retry. */
  error: unknown;
  refresh: () => Promise<void>;
  /** Applies a placement or cancel answer at once (the stream confirms it too). */
  applyOrder: (order: PaperOrder, fills?: PaperTrade[]) => void;
}

export function mergeBalances(prev: PaperBalance[], changed: PaperBalance[]): PaperBalance[] {
  const byAsset = new Map(prev.map((b) => [b.asset, b]));
  for (const b of changed) byAsset.set(b.asset, b);
  return [...byAsset.values()].sort((a, b) => a.asset.localeCompare(b.asset));
}

/**
 * The user's paper account while simulation mode is on and a user is logged in:
 * balances, open orders, order and trade history, fee tier; kept live by `/v1/ws/user`
 * (reconnecting; every reconnect reloads the lists so nothing missed stays missing).
 */
export function usePaper(enabled: boolean): PaperState {
  const [ready, setReady] = useState(false);
  const [balances, setBalances] = useState<PaperBalance[]>([]);
  const { openOrders, history, trades, addFills, applyOrder, load } = useOrderLists<PaperOrder, PaperTrade>();
  const [fees, setFees] = useState<PaperFees | null>(null);
  const [error, setError] = useState<unknown>(null);
  const enabledRef = useRef(enabled);
  enabledRef.current = enabled;

  // A failed read is kept for the panel to show with a retry, never swallowed into empty lists.
  const refresh = useCallback(async () => {
    if (!enabledRef.current) return;
    try {
      const [b, o, h, t, f] = await Promise.all([
        paperApi.balances(),
        paperApi.openOrders({ limit: LIST_LIMIT }),
        paperApi.orderHistory({ limit: LIST_LIMIT }),
        paperApi.trades({ limit: LIST_LIMIT }),
        paperApi.fees(),
      ]);
      setBalances(mergeBalances([], b));
      load({ open: o, history: h, trades: t });
      setFees(f);
      setReady(true);
      setError(null);
    } catch (e) {
      setError(e);
      throw e;
    }
  }, [load]);

  useEffect(() => {
    if (!enabled) {
      setReady(false);
      return;
    }
    void refresh().catch(() => undefined);
  }, [enabled, refresh]);

  useLiveStream(PaperPath.WS, enabled, {
    // The first open loads too (above); later opens catch up on what the gap missed.
    onReopen: () => void refresh().catch(() => undefined),
    onMessage: (m) => {
      const push = m as UserStreamPush;
      if (push.event === "order") applyOrder(push.data);
      else if (push.event === "fill") addFills([push.data]);
      else if (push.event === "balance") setBalances((prev) => mergeBalances(prev, push.data));
    },
  });

  const loading = enabled && !ready && error === null;
  return { ready, balances, openOrders, history, trades, fees, loading, error, refresh, applyOrder };
}

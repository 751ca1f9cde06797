import type {
  MarginAccountView,
  MarginOrder,
  MarginStreamPush,
  MarginTrade,
  MaxAmount,
} from "@meridian/contracts";
import { PaperPath } from "@meridian/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { useLiveStream, useOrderLists } from "../trade/use-account-stream.ts";
import { type MarginScope, marginApi, scopeQuery } from "./api.ts";

const LIMIT = 100;

export interface MarginState {
  account: MarginAccountView | null;
  /** Max borrowable of the pair's base and quote in this account. */
  maxBorrow: Record<string, string>;
  openOrders: MarginOrder[];
  history: MarginOrder[];
  trades: MarginTrade[];
  /** Loaded at least once (false while the account is missing too). */
  ready: boolean;
  refresh: () => void;
  applyOrder: (order: MarginOrder, fills?: MarginTrade[]) => void;
}

/** True when a pushed account view is the account this scope shows. */
export function sameAccount(view: MarginAccountView, scope: MarginScope): boolean {
  return view.mode === scope.mode && (scope.mode === "cross" || view.symbol === scope.symbol);
}

/**
 * One margin account (cross, or the isolated account of `symbol`) with its margin
 * orders and fills: REST first, then live over `/v1/ws/user` (the spot events' socket;
 * each reconnect reloads, so nothing missed in a gap stays missing).
 */
export function useMargin(
  enabled: boolean,
  scope: MarginScope,
  base: string,
  quote: string,
  /** Pushes about the user's other margin accounts. */
  onOtherAccount?: (view: MarginAccountView) => void,
): MarginState {
  const [account, setAccount] = useState<MarginAccountView | null>(null);
  const [maxBorrow, setMaxBorrow] = useState<Record<string, string>>({});
  const { openOrders, history, trades, addFills, applyOrder, load } = useOrderLists<
    MarginOrder,
    MarginTrade
  >();
  const [ready, setReady] = useState(false);
  const scopeRef = useRef(scope);
  scopeRef.current = scope;
  const otherRef = useRef(onOtherAccount);
  otherRef.current = onOtherAccount;
  const { mode, symbol } = scope;

  const loadMax = useCallback(() => {
    const s = scopeRef.current;
    const assets = [base, quote];
    void Promise.all(
      assets.map((asset) =>
        marginApi.maxBorrowable({ ...scopeQuery(s), asset }).catch((): MaxAmount => ({ asset, amount: "0" })),
      ),
    ).then((list) => setMaxBorrow(Object.fromEntries(list.map((m) => [m.asset, m.amount]))));
  }, [base, quote]);

  const refresh = useCallback(() => {
    if (!enabled) return;
    const s = { mode, symbol };
    void marginApi.account(s).then(
      (a) => {
        setAccount(a);
        setReady(true);
      },
      () => setReady(true),
    );
    void marginApi.openOrders({ limit: LIMIT }).then(
      (open) => load({ open }),
      () => {},
    );
    void marginApi.orderHistory({ limit: LIMIT }).then(
      (history) => load({ history }),
      () => {},
    );
    void marginApi.trades({ limit: LIMIT }).then(
      (trades) => load({ trades }),
      () => {},
    );
    loadMax();
  }, [enabled, mode, symbol, loadMax, load]);

  useEffect(() => {
    setAccount(null);
    setReady(false);
    refresh();
  }, [refresh]);

  // Limits follow the account; pushes come at most once a second.
  const maxTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(maxTimer.current), []);
  useLiveStream(PaperPath.WS, enabled, {
    onReopen: refresh,
    onMessage: (m) => {
      const push = m as MarginStreamPush;
      if (push.event === "margin") {
        if (!sameAccount(push.data, scopeRef.current)) {
          otherRef.current?.(push.data);
          return;
        }
        setAccount(push.data);
        clearTimeout(maxTimer.current);
        maxTimer.current = setTimeout(loadMax, 300);
      } else if (push.event === "marginOrder") applyOrder(push.data);
      else if (push.event === "marginFill") addFills([push.data]);
    },
  });

  return { account, maxBorrow, openOrders, history, trades, ready, refresh, applyOrder };
}

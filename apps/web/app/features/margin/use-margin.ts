import { isApiError } from "@meridian/client/api-error";
import type {
  MarginAccountView,
  MarginOrder,
  MarginStreamPush,
  MarginTrade,
  MaxAmount,
} from "@meridian/contracts";
import { PaperPath } from "@meridian/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { type MarginScope, marginApi, scopeQuery } from "../../api/margin.ts";
import { firstError, useApiData } from "../../lib/use-api-data.ts";
import { useLiveStream, useOrderLists } from "../trading-screen/use-account-stream.ts";

const LIMIT = 100;
const NO_MAX: Record<string, string> = {};
const loadOpenOrders = () => marginApi.openOrders({ limit: LIMIT });
const loadOrderHistory = () => marginApi.orderHistory({ limit: LIMIT });
const loadTrades = () => marginApi.trades({ limit: LIMIT });

export interface MarginState {
  account: MarginAccountView | null;
  /** Max borrowable of the pair's base and quote in this account. */
  maxBorrow: Record<string, string>;
  openOrders: MarginOrder[];
  history: MarginOrder[];
  trades: MarginTrade[];
  /** Loaded at least once, well or not (false while switched off). */
  ready: boolean;
  /** The account or its order lists are being read for the first time. */
  loading: boolean;
  /** The failure of the last read of the account, limits or lists (null when none). */
  error: unknown;
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
 * each reconnect reloads, so nothing missed in a gap stays missing). A failed read is
 * kept in `error` for the screen to show.
 */
export function useMargin(
  enabled: boolean,
  scope: MarginScope,
  base: string,
  quote: string,
  /** Pushes about the user's other margin accounts. */
  onOtherAccount?: (view: MarginAccountView) => void,
): MarginState {
  const { openOrders, history, trades, addFills, applyOrder, load } = useOrderLists<
    MarginOrder,
    MarginTrade
  >();
  const scopeRef = useRef(scope);
  scopeRef.current = scope;
  const otherRef = useRef(onOtherAccount);
  otherRef.current = onOtherAccount;
  const { mode, symbol } = scope;
  // Limits follow the account: re-read (debounced) after each account push.
  const [maxVersion, setMaxVersion] = useState(0);

  const loadAccount = useCallback(() => marginApi.account({ mode, symbol }), [mode, symbol]);
  const loadMax = useCallback(
    () =>
      Promise.all(
        [base, quote].map((asset) =>
          // An asset this account cannot borrow is refused by the server: it reads as 0.
          marginApi.maxBorrowable({ ...scopeQuery({ mode, symbol }), asset }).catch((error: unknown) => {
            if (isApiError(error) && error.kind === "api") return { asset, amount: "0" } satisfies MaxAmount;
            throw error;
          }),
        ),
      ).then((list) => Object.fromEntries(list.map((m) => [m.asset, m.amount]))),
    [base, quote, mode, symbol],
  );
  const account = useApiData(loadAccount, enabled);
  const maxBorrow = useApiData(loadMax, enabled, maxVersion);
  const openRead = useApiData(loadOpenOrders, enabled);
  const historyRead = useApiData(loadOrderHistory, enabled);
  const tradesRead = useApiData(loadTrades, enabled);
  useEffect(() => {
    if (openRead.data) load({ open: openRead.data });
  }, [openRead.data, load]);
  useEffect(() => {
    if (historyRead.data) load({ history: historyRead.data });
  }, [historyRead.data, load]);
  useEffect(() => {
    if (tradesRead.data) load({ trades: tradesRead.data });
  }, [tradesRead.data, load]);

  const { reload: reloadAccount } = account;
  const { reload: reloadMax } = maxBorrow;
  const { reload: reloadOpen } = openRead;
  const { reload: reloadHistory } = historyRead;
  const { reload: reloadTrades } = tradesRead;
  const refresh = useCallback(() => {
    void reloadAccount();
    void reloadMax();
    void reloadOpen();
    void reloadHistory();
    void reloadTrades();
  }, [reloadAccount, reloadMax, reloadOpen, reloadHistory, reloadTrades]);

  // Pushes come at most once a second.
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
        account.set(push.data);
        clearTimeout(maxTimer.current);
        maxTimer.current = setTimeout(() => setMaxVersion((v) => v + 1), 300);
      } else if (push.event === "marginOrder") applyOrder(push.data);
      else if (push.event === "marginFill") addFills([push.data]);
    },
  });

  return {
    account: account.data ?? null,
    maxBorrow: maxBorrow.data ?? NO_MAX,
    openOrders,
    history,
    trades,
    ready: account.settled,
    loading: enabled && !(account.settled && openRead.settled && historyRead.settled && tradesRead.settled),
    error: firstError(account, maxBorrow, openRead, historyRead, tradesRead),
    refresh,
    applyOrder,
  };
}

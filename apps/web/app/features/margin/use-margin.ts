import type {
  MarginAccountView,
  MarginOrder,
  MarginStreamPush,
  MarginTrade,
  MaxAmount,
} from "@meridian/contracts";
import { PaperPath } from "@meridian/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { LiveSocket, socketUrl } from "../trade/live-socket.ts";
import { mergeFills, upsertOrder } from "../trade/use-paper.ts";
import { type MarginScope, marginApi, scopeQuery } from "./api.ts";

const OPEN = new Set(["NEW", "PARTIALLY_FILLED"]);
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
  const [openOrders, setOpenOrders] = useState<MarginOrder[]>([]);
  const [history, setHistory] = useState<MarginOrder[]>([]);
  const [trades, setTrades] = useState<MarginTrade[]>([]);
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
    void marginApi.openOrders({ limit: LIMIT }).then(setOpenOrders, () => {});
    void marginApi.orderHistory({ limit: LIMIT }).then(
      (list) => setHistory(list.filter((o) => !OPEN.has(o.status))),
      () => {},
    );
    void marginApi.trades({ limit: LIMIT }).then(setTrades, () => {});
    loadMax();
  }, [enabled, mode, symbol, loadMax]);

  const addFills = useCallback((fills: MarginTrade[]) => {
    if (fills.length === 0) return;
    setTrades((prev) => mergeFills(prev, fills));
  }, []);

  const applyOrder = useCallback(
    (order: MarginOrder, fills: MarginTrade[] = []) => {
      if (OPEN.has(order.status)) setOpenOrders((prev) => upsertOrder(prev, order));
      else {
        setOpenOrders((prev) => prev.filter((o) => o.orderId !== order.orderId));
        setHistory((prev) => upsertOrder(prev, order));
      }
      addFills(fills);
    },
    [addFills],
  );

  useEffect(() => {
    setAccount(null);
    setReady(false);
    refresh();
  }, [refresh]);

  useEffect(() => {
    if (!enabled) return undefined;
    let first = true;
    let maxTimer: ReturnType<typeof setTimeout> | undefined;
    const socket = new LiveSocket({
      url: socketUrl(PaperPath.WS),
      subscribeOp: false,
      onStatus: (st) => {
        if (st !== "open") return;
        if (!first) refresh();
        first = false;
      },
      onMessage: (m) => {
        const push = m as MarginStreamPush;
        if (push.event === "margin") {
          if (!sameAccount(push.data, scopeRef.current)) {
            otherRef.current?.(push.data);
            return;
          }
          setAccount(push.data);
          // Limits follow the account; pushes come at most once a second.
          clearTimeout(maxTimer);
          maxTimer = setTimeout(loadMax, 300);
        } else if (push.event === "marginOrder") applyOrder(push.data);
        else if (push.event === "marginFill") addFills([push.data]);
      },
    });
    const timer = setTimeout(() => socket.start(), 0);
    return () => {
      clearTimeout(timer);
      clearTimeout(maxTimer);
      socket.stop();
    };
  }, [enabled, refresh, applyOrder, addFills, loadMax]);

  return { account, maxBorrow, openOrders, history, trades, ready, refresh, applyOrder };
}

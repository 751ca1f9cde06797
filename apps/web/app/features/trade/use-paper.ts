import type { PaperBalance, PaperFees, PaperOrder, PaperTrade, UserStreamPush } from "@meridian/contracts";
import { PaperPath } from "@meridian/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { paperApi } from "./api.ts";
import { LiveSocket, socketUrl } from "./live-socket.ts";

const OPEN_STATUSES = new Set(["NEW", "PARTIALLY_FILLED"]);
const LIST_LIMIT = 100;

export interface PaperState {
  ready: boolean;
  balances: PaperBalance[];
  openOrders: PaperOrder[];
  history: PaperOrder[];
  trades: PaperTrade[];
  fees: PaperFees | null;
  refresh: () => Promise<void>;
  /** Applies a placement or cancel answer at once (the stream confirms it too). */
  applyOrder: (order: PaperOrder, fills?: PaperTrade[]) => void;
}

/** The list with `order` added or replaced, newest first. */
export function upsertOrder<T extends PaperOrder>(list: T[], order: T): T[] {
  const rest = list.filter((o) => o.orderId !== order.orderId);
  return [order, ...rest].sort((a, b) => b.orderId - a.orderId);
}

/** Fills added to a list once each, newest first. */
export function mergeFills<T extends PaperTrade>(prev: T[], fills: T[]): T[] {
  const seen = new Set(prev.map((t) => t.tradeId));
  return [...fills.filter((f) => !seen.has(f.tradeId)), ...prev].sort((a, b) => b.tradeId - a.tradeId);
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
  const [openOrders, setOpenOrders] = useState<PaperOrder[]>([]);
  const [history, setHistory] = useState<PaperOrder[]>([]);
  const [trades, setTrades] = useState<PaperTrade[]>([]);
  const [fees, setFees] = useState<PaperFees | null>(null);
  const enabledRef = useRef(enabled);
  enabledRef.current = enabled;

  const refresh = useCallback(async () => {
    if (!enabledRef.current) return;
    const [b, o, h, t, f] = await Promise.all([
      paperApi.balances(),
      paperApi.openOrders({ limit: LIST_LIMIT }),
      paperApi.orderHistory({ limit: LIST_LIMIT }),
      paperApi.trades({ limit: LIST_LIMIT }),
      paperApi.fees(),
    ]);
    setBalances(mergeBalances([], b));
    setOpenOrders(o);
    setHistory(h.filter((x) => !OPEN_STATUSES.has(x.status)));
    setTrades(t);
    setFees(f);
    setReady(true);
  }, []);

  const addFills = useCallback((fills: PaperTrade[]) => {
    if (fills.length === 0) return;
    setTrades((prev) => mergeFills(prev, fills));
  }, []);

  const applyOrder = useCallback(
    (order: PaperOrder, fills: PaperTrade[] = []) => {
      if (OPEN_STATUSES.has(order.status)) setOpenOrders((prev) => upsertOrder(prev, order));
      else {
        setOpenOrders((prev) => prev.filter((o) => o.orderId !== order.orderId));
        setHistory((prev) => upsertOrder(prev, order));
      }
      addFills(fills);
    },
    [addFills],
  );

  useEffect(() => {
    if (!enabled) {
      setReady(false);
      return undefined;
    }
    let first = true;
    const socket = new LiveSocket({
      url: socketUrl(PaperPath.WS),
      subscribeOp: false,
      onStatus: (s) => {
        if (s !== "open") return;
        // The first open loads too; later opens catch up on what the gap missed.
        if (!first) void refresh().catch(() => undefined);
        first = false;
      },
      onMessage: (m) => {
        const push = m as UserStreamPush;
        if (push.event === "order") applyOrder(push.data);
        else if (push.event === "fill") addFills([push.data]);
        else if (push.event === "balance") setBalances((prev) => mergeBalances(prev, push.data));
      },
    });
    const timer = setTimeout(() => socket.start(), 0);
    void refresh().catch(() => undefined);
    return () => {
      clearTimeout(timer);
      socket.stop();
    };
  }, [enabled, refresh, applyOrder, addFills]);

  return { ready, balances, openOrders, history, trades, fees, refresh, applyOrder };
}

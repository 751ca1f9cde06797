import { isOpenOrderStatus, type PaperOrder, type PaperTrade } from "@meridian/contracts";
import { useCallback, useEffect, useRef, useState } from "react";
import { LiveSocket, socketUrl } from "./live-socket.ts";

/** True while an order can still fill (it belongs in the open list, not the history). */
export function isOpenOrder(order: Pick<PaperOrder, "status">): boolean {
  return isOpenOrderStatus(order.status);
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

/**
 * An account's open orders, finished orders and fills (spot or margin), kept in step
 * with placement and cancel answers and stream pushes: `applyOrder` moves an order
 * between the lists, `addFills` adds fills once each, `load` replaces them with a read.
 */
export function useOrderLists<O extends PaperOrder, F extends PaperTrade>() {
  const [openOrders, setOpenOrders] = useState<O[]>([]);
  const [history, setHistory] = useState<O[]>([]);
  const [trades, setTrades] = useState<F[]>([]);

  const addFills = useCallback((fills: F[]) => {
    if (fills.length === 0) return;
    setTrades((prev) => mergeFills(prev, fills));
  }, []);

  const applyOrder = useCallback(
    (order: O, fills: F[] = []) => {
      if (isOpenOrder(order)) setOpenOrders((prev) => upsertOrder(prev, order));
      else {
        setOpenOrders((prev) => prev.filter((o) => o.orderId !== order.orderId));
        setHistory((prev) => upsertOrder(prev, order));
      }
      addFills(fills);
    },
    [addFills],
  );

  /** Replaces the lists read (history keeps finished orders only). */
  const load = useCallback((read: { open?: O[]; history?: O[]; trades?: F[] }) => {
    if (read.open) setOpenOrders(read.open);
    if (read.history) setHistory(read.history.filter((o) => !isOpenOrder(o)));
    if (read.trades) setTrades(read.trades);
  }, []);

  return { openOrders, history, trades, addFills, applyOrder, load };
}

/**
 * A reconnecting LiveSocket on `path` while `active` (no subscribe ops: the user
 * streams push on their own). Every open after the first calls `onReopen`, so what a
 * gap missed is read again. The handlers are read fresh on each call.
 */
export function useLiveStream(
  path: string,
  active: boolean,
  handlers: { onMessage: (message: unknown) => void; onReopen: () => void },
): void {
  const ref = useRef(handlers);
  ref.current = handlers;
  useEffect(() => {
    if (!active) return undefined;
    let first = true;
    const socket = new LiveSocket({
      url: socketUrl(path),
      subscribeOp: false,
      onStatus: (s) => {
        if (s !== "open") return;
        if (!first) ref.current.onReopen();
        first = false;
      },
      onMessage: (m) => ref.current.onMessage(m),
    });
    // Opened a tick later: a mount undone at once (React's strict mode) never dials out.
    const timer = setTimeout(() => socket.start(), 0);
    return () => {
      clearTimeout(timer);
      socket.stop();
    };
  }, [path, active]);
}

import type {
  FuturesAccount,
  FuturesMark,
  FuturesOrder,
  FuturesPosition,
  FuturesStreamPush,
} from "@meridian/contracts";
import { FuturesPath } from "@meridian/contracts";
import { useCallback, useEffect, useMemo, useState } from "react";
import { futuresApi } from "../../api/futures.ts";
import { firstError, useApiData } from "../../lib/use-api-data.ts";
import { FrameStore } from "../trading-screen/frame-store.ts";
import { useLiveStream } from "../trading-screen/use-account-stream.ts";
import type { MarginFamily } from "./families.ts";

/** Which futures a screen shows: a family's positions and orders, and the wallet of one margin coin. */
export interface FuturesScope {
  family: MarginFamily;
  /** "USDT" (the USDT-M wallet) or a coin-M wallet's coin ("BTC"). */
  marginCoin: string;
}

export const USDT_SCOPE: FuturesScope = { family: "usdt", marginCoin: "USDT" };

export interface FuturesState {
  /** The margin family shown (its lists only). */
  family: MarginFamily;
  account: FuturesAccount | null;
  positions: FuturesPosition[];
  openOrders: FuturesOrder[];
  /** Each contract's mark as last read: its tick and step sizes (the prices go stale). */
  marks: Record<string, FuturesMark>;
  /** The marks as pushed each second; what shows a mark price reads it with `useFrameValue`. */
  liveMarks: FrameStore<Record<string, FuturesMark>>;
  /** Bumped on every fill, order or funding push (history tables re-read). */
  version: number;
  /** Positions and open orders are being read for the first time (tables show a placeholder). */
  listsLoading: boolean;
  /** The failure of the last read of the account, positions, orders or marks (null when none). */
  error: unknown;
  refresh: () => void;
}

const NO_POSITIONS: FuturesPosition[] = [];
const NO_ORDERS: FuturesOrder[] = [];
const NO_MARKS: Record<string, FuturesMark> = {};
const byMarkSymbol = (list: FuturesMark[]) => Object.fromEntries(list.map((m) => [m.symbol, m]));
const loadMarks = () => futuresApi.marks().then(byMarkSymbol);

/**
 * The user's futures account over REST, then live over `/v1/ws/futures` (reconnecting; a
 * reconnect reloads the account): the wallet of `scope.marginCoin`, and the positions and
 * open orders of `scope.family` (the lists hold both families; the other is left out).
 */
export function useFutures(enabled: boolean, scope: FuturesScope = USDT_SCOPE): FuturesState {
  const { family, marginCoin } = scope;
  const loadAccount = useCallback(() => futuresApi.account(marginCoin), [marginCoin]);
  const account = useApiData(loadAccount, enabled);
  const loadPositions = useCallback(() => futuresApi.positions(family), [family]);
  const loadOpenOrders = useCallback(() => futuresApi.openOrders(family), [family]);
  const positions = useApiData(loadPositions, enabled);
  const openOrders = useApiData(loadOpenOrders, enabled);
  const marks = useApiData(loadMarks);
  const [liveMarks] = useState(() => new FrameStore<Record<string, FuturesMark>>(NO_MARKS));
  useEffect(() => {
    if (marks.data) liveMarks.set(marks.data);
  }, [marks.data, liveMarks]);
  const [version, setVersion] = useState(0);
  const { reload: reloadAccount } = account;
  const { reload: reloadPositions } = positions;
  const { reload: reloadOrders } = openOrders;
  const { reload: reloadMarks, error: marksError } = marks;

  const refresh = useCallback(() => {
    if (marksError !== null) void reloadMarks();
    if (!enabled) return;
    void reloadAccount();
    void reloadPositions();
    void reloadOrders();
    setVersion((v) => v + 1);
  }, [enabled, reloadAccount, reloadPositions, reloadOrders, reloadMarks, marksError]);

  // Marks stream to everyone (into `liveMarks`: a push re-renders only what shows a mark);
  // the account's pushes only matter to a paper trader.
  useLiveStream(FuturesPath.WS, true, {
    onReopen: refresh,
    onMessage: (message) => {
      const m = message as FuturesStreamPush;
      if (m.event === "marks") {
        liveMarks.set(byMarkSymbol(m.data));
        // The sizes come with the first push when the read failed.
        if (marks.data === undefined) marks.set(byMarkSymbol(m.data));
      } else if (!enabled) return;
      else if (m.event === "account") {
        // A push names its wallet; another coin's (or the USDT-M one) is not this screen's.
        if (m.data.marginCoin === marginCoin) account.set(m.data);
      } else if (m.event === "positions") positions.set(m.data);
      else if (m.event === "order" || m.event === "fill" || m.event === "funding") {
        if (m.event === "order") void openOrders.reload();
        setVersion((v) => v + 1);
      }
    },
  });

  const ownPositions = useMemo(
    () => (positions.data ?? NO_POSITIONS).filter((p) => p.family === family),
    [positions.data, family],
  );
  const ownOrders = useMemo(
    () => (openOrders.data ?? NO_ORDERS).filter((o) => o.family === family),
    [openOrders.data, family],
  );

  return {
    family,
    account: account.data ?? null,
    positions: ownPositions,
    openOrders: ownOrders,
    marks: marks.data ?? NO_MARKS,
    liveMarks,
    version,
    listsLoading: enabled && !(positions.settled && openOrders.settled),
    error: firstError(account, positions, openOrders, marks),
    refresh,
  };
}

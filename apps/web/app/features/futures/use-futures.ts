import type {
  FuturesAccount,
  FuturesMark,
  FuturesOrder,
  FuturesPosition,
  FuturesStreamPush,
} from "@meridian/contracts";
import { FuturesPath } from "@meridian/contracts";
import { useCallback, useEffect, useState } from "react";
import { useLiveStream } from "../trade/use-account-stream.ts";
import { futuresApi } from "./api.ts";

export interface FuturesState {
  account: FuturesAccount | null;
  positions: FuturesPosition[];
  openOrders: FuturesOrder[];
  marks: Record<string, FuturesMark>;
  /** Bumped on every fill, order or funding push (history tables re-read). */
  version: number;
  refresh: () => void;
}

/** The user's futures account over REST, then live over `/v1/ws/futures` (reconnecting; a reconnect reloads the account). */
export function useFutures(enabled: boolean): FuturesState {
  const [account, setAccount] = useState<FuturesAccount | null>(null);
  const [positions, setPositions] = useState<FuturesPosition[]>([]);
  const [openOrders, setOpenOrders] = useState<FuturesOrder[]>([]);
  const [marks, setMarks] = useState<Record<string, FuturesMark>>({});
  const [version, setVersion] = useState(0);

  const refresh = useCallback(() => {
    if (!enabled) return;
    void futuresApi.account().then(setAccount, () => {});
    void futuresApi.positions().then(setPositions, () => {});
    void futuresApi.openOrders().then(setOpenOrders, () => {});
    setVersion((v) => v + 1);
  }, [enabled]);

  useEffect(() => {
    refresh();
    void futuresApi.marks().then(
      (list) => setMarks(Object.fromEntries(list.map((m) => [m.symbol, m]))),
      () => {},
    );
  }, [refresh]);

  // Marks stream to everyone; the account's pushes only matter to a paper trader.
  useLiveStream(FuturesPath.WS, true, {
    onReopen: refresh,
    onMessage: (message) => {
      const m = message as FuturesStreamPush;
      if (m.event === "marks") setMarks(Object.fromEntries(m.data.map((x) => [x.symbol, x])));
      else if (!enabled) return;
      else if (m.event === "account") setAccount(m.data);
      else if (m.event === "positions") setPositions(m.data);
      else if (m.event === "order" || m.event === "fill" || m.event === "funding") {
        if (m.event === "order") void futuresApi.openOrders().then(setOpenOrders, () => {});
        setVersion((v) => v + 1);
      }
    },
  });

  return { account, positions, openOrders, marks, version, refresh };
}

import { useEffect, useState } from "react";
import { futuresApi } from "../futures/api.ts";
import { marginApi } from "../margin/api.ts";
import { add } from "../trade/decimal.ts";

/** The futures wallet's margin balance and the margin accounts' net value (cross plus isolated), in USDT. */
export function useAccountValues(enabled: boolean): { futures: string | null; margin: string | null } {
  const [futures, setFutures] = useState<string | null>(null);
  const [margin, setMargin] = useState<string | null>(null);
  useEffect(() => {
    if (!enabled) return;
    void futuresApi.account().then(
      (a) => setFutures(a.marginBalance),
      () => {},
    );
    void Promise.all([marginApi.account({ mode: "cross" }), marginApi.isolated()]).then(
      ([cross, isolated]) => setMargin(isolated.reduce((sum, a) => add(sum, a.netAsset), cross.netAsset)),
      () => {},
    );
  }, [enabled]);
  return { futures, margin };
}

import type { OrderSideValue } from "@meridian/contracts";
import { useState } from "react";
import { type FormProblem, refusalProblem } from "./order-form-state.ts";

interface Refused {
  side: OrderSideValue;
  problem: FormProblem;
  seq: number;
}

/**
 * The order panels' server refusals that are about one control: `shown(side, error)` keeps
 * one for the side's form to show under that control and says whether it did (any other
 * refusal is the panel's to show under the buttons); `forSide` is the form's `refused`.
 */
export function useRefusal() {
  const [refused, setRefused] = useState<Refused | null>(null);
  return {
    clear: () => setRefused(null),
    shown: (side: OrderSideValue, error: unknown): boolean => {
      const problem = refusalProblem(error);
      if (problem !== undefined) setRefused({ side, problem, seq: Date.now() });
      return problem !== undefined;
    },
    forSide: (side: OrderSideValue): Refused | null => (refused?.side === side ? refused : null),
  };
}

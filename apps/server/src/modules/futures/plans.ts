import type { FuturesOrderType } from "@meridian/contracts";
import type { Queryable, SqlValue } from "../../platform/db/types.ts";

/**
 * Trigger orders beyond a stop at market: limit plans (`STOP_LIMIT`, `TAKE_PROFIT_LIMIT`)
 * that rest as a limit at their price once the mark reaches the trigger, and trailing
 * stops (`TRAILING_STOP_MARKET`) that follow the best mark since they were placed and fire
 * at market when the mark comes back the callback from it. What they keep beyond the
 * order's row is a `PlanState`, stored in `futures_order_plans` in the same commit.
 */
export interface PlanState {
  /** Trailing: the callback in millionths of the best mark (1% = 10,000). */
  callbackPpm: number | null;
  /** Trailing: the best mark seen since placement (highest for a sell, lowest for a buy). */
  bestTicks: number | null;
  /** When the trigger fired: a limit plan rests from then on. */
  triggeredAt: number | null;
}

/** Callback bounds, as Bitget's `callbackRatio`: above 0, at most 10 percent. */
export const MAX_CALLBACK_PPM = 100_000;

export const isLimitPlan = (type: FuturesOrderType) => type === "STOP_LIMIT" || type === "TAKE_PROFIT_LIMIT";

/** A trigger type: waits for the mark (a stop, a take-profit, their limit kinds, a trailing stop). */
export const isTriggerType = (type: FuturesOrderType) => type !== "LIMIT" && type !== "MARKET";

/** A stop fires against the position's direction (a buy on a rise); a take-profit the other way. */
export const isStopType = (type: FuturesOrderType) => type === "STOP_MARKET" || type === "STOP_LIMIT";

interface Plannable {
  type: FuturesOrderType;
  priceTicks: number | null;
  stopTicks: number | null;
  plan?: PlanState | undefined;
}

/** Whether the order rests in the book as a limit: a limit, or a limit plan that fired. */
export const restsAsLimit = (o: Plannable) =>
  o.priceTicks !== null &&
  (o.type === "LIMIT" || (isLimitPlan(o.type) && (o.plan?.triggeredAt ?? null) !== null));

/** Whether the order still waits for its trigger. */
export const waitsForTrigger = (o: Plannable) =>
  o.stopTicks !== null && isTriggerType(o.type) && (o.plan?.triggeredAt ?? null) === null;

/** Percent text ("1.5") to millionths (15,000); null when it has more than 4 decimals or is out of bounds. */
export function callbackPpm(percent: string): number | null {
  const m = /^(\d{1,2})(?:\.(\d{1,4}))?$/.exec(percent);
  if (m === null) return null;
  const ppm = Number(m[1]) * 10_000 + Number((m[2] ?? "").padEnd(4, "0"));
  return ppm > 0 && ppm <= MAX_CALLBACK_PPM ? ppm : null;
}

/** Millionths back to percent text (15,000 -> "1.5"). */
export function callbackText(ppm: number): string {
  const whole = Math.floor(ppm / 10_000);
  const frac = String(ppm % 10_000)
    .padStart(4, "0")
    .replace(/0+$/, "");
  return frac === "" ? String(whole) : `${whole}.${frac}`;
}

/**
 * One mark for a trailing stop: the best mark moves with it (a sell tracks the highest, a
 * buy the lowest), and the stop fires when it has been activated (the best mark reached
 * the activation price `stopTicks`) and the mark is the callback back from the best.
 * Exact in integers: a sell fires at mark <= best x (1 - callback), a buy at mark >=
 * best x (1 + callback). Answers whether the best moved and whether it fires.
 */
export function trailStep(
  side: "BUY" | "SELL",
  activationTicks: number,
  plan: PlanState,
  mark: number,
): { moved: boolean; fires: boolean } {
  const ppm = plan.callbackPpm ?? 0;
  const before = plan.bestTicks;
  const best = before === null ? mark : side === "SELL" ? Math.max(before, mark) : Math.min(before, mark);
  plan.bestTicks = best;
  const active = side === "SELL" ? best >= activationTicks : best <= activationTicks;
  const fires =
    active &&
    (side === "SELL"
      ? mark * 1_000_000 <= best * (1_000_000 - ppm)
      : mark * 1_000_000 >= best * (1_000_000 + ppm));
  return { moved: best !== before, fires };
}

const num = (v: number | string | null) => (v === null ? null : Number(v));

/** Writes the plan state of the orders that carry one (the command's changed orders). */
export async function writePlans(
  tx: Queryable,
  orders: Iterable<{ id: number; plan?: PlanState | undefined }>,
): Promise<void> {
  for (const o of orders) {
    if (o.plan === undefined) continue;
    await tx.run(
      `INSERT INTO futures_order_plans (order_id, callback_ppm, best_ticks, triggered_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (order_id) DO UPDATE SET callback_ppm = excluded.callback_ppm,
         best_ticks = excluded.best_ticks, triggered_at = excluded.triggered_at`,
      [o.id, o.plan.callbackPpm, o.plan.bestTicks, o.plan.triggeredAt],
    );
  }
}

/** Reads back the plan state of the trigger orders among `rows` (in place); answers `rows`. */
export async function withPlans<
  T extends { id: number; type: FuturesOrderType; plan?: PlanState | undefined },
>(db: Queryable, rows: T[]): Promise<T[]> {
  const ids = rows.filter((r) => isLimitPlan(r.type) || r.type === "TRAILING_STOP_MARKET").map((r) => r.id);
  if (ids.length === 0) return rows;
  const found = new Map<number, PlanState>();
  for (let i = 0; i < ids.length; i += 500) {
    const part: SqlValue[] = ids.slice(i, i + 500);
    const got = await db.all<{
      order_id: number | string;
      callback_ppm: number | string | null;
      best_ticks: number | string | null;
      triggered_at: number | string | null;
    }>(
      `SELECT order_id, callback_ppm, best_ticks, triggered_at FROM futures_order_plans
       WHERE order_id IN (${part.map(() => "?").join(", ")})`,
      part,
    );
    for (const g of got)
      found.set(Number(g.order_id), {
        callbackPpm: num(g.callback_ppm),
        bestTicks: num(g.best_ticks),
        triggeredAt: num(g.triggered_at),
      });
  }
  for (const r of rows) {
    const p = found.get(r.id);
    if (p !== undefined) r.plan = p;
  }
  return rows;
}

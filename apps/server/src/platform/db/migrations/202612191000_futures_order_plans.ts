import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * What a futures trigger order keeps beyond its row (`futures/plans.ts`): a trailing
 * stop's callback and the best mark it has seen, and when a trigger order fired (a
 * limit one then rests as a limit).
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE futures_order_plans (
      order_id ${t.bigint} PRIMARY KEY,
      callback_ppm ${t.bigint},
      best_ticks ${t.bigint},
      triggered_at ${t.bigint}
    )`,
  ];
}

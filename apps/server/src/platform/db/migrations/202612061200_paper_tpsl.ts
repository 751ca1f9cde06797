import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * TP/SL attached to paper orders. A parent keeps the legs it will place (trigger and
 * optional limit price, in ticks); each placed leg is an ordinary trigger order that
 * names its parent, its role ('TP' or 'SL') and its OCO partner, so a restart rebuilds
 * the pair from the rows.
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `ALTER TABLE paper_orders ADD COLUMN tp_trigger_ticks ${t.bigint}`,
    `ALTER TABLE paper_orders ADD COLUMN tp_price_ticks ${t.bigint}`,
    `ALTER TABLE paper_orders ADD COLUMN sl_trigger_ticks ${t.bigint}`,
    `ALTER TABLE paper_orders ADD COLUMN sl_price_ticks ${t.bigint}`,
    `ALTER TABLE paper_orders ADD COLUMN parent_order_id ${t.bigint}`,
    "ALTER TABLE paper_orders ADD COLUMN tpsl_role TEXT",
    `ALTER TABLE paper_orders ADD COLUMN oco_order_id ${t.bigint}`,
  ];
}

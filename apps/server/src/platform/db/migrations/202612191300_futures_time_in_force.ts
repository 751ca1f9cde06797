/**
 * A futures limit order's time in force (GTC, IOC, FOK, GTX), so its detail and pushes say
 * what was asked; NULL on rows from before it (all GTC).
 */
export function up(): string[] {
  return ["ALTER TABLE futures_orders ADD COLUMN time_in_force TEXT"];
}

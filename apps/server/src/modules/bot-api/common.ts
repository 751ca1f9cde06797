import { z } from "zod";
import { bgEnum, bgInt, toBitget } from "./bitget.ts";

/** Request fields and list helpers shared by the spot, margin and futures endpoint files. */

export const symbol = z
  .string()
  .regex(/^[A-Za-z0-9]{2,20}$/, "symbol")
  .transform((s) => s.toUpperCase());
export const clientOid = z.string().regex(/^[A-Za-z0-9._:-]{1,36}$/, "clientOid");
export const lower = bgEnum;

/** Paging and time-window fields every Bitget order, fill and record list takes. */
export const listFields = {
  symbol: symbol.optional(),
  orderId: bgInt.optional(),
  startTime: bgInt.optional(),
  endTime: bgInt.optional(),
  limit: bgInt.optional().transform((n) => Math.min(100, Math.max(1, n ?? 100))),
  idLessThan: bgInt.optional(),
};
export const listQuery = z.object(listFields);
export type ListQuery = z.output<typeof listQuery>;

/** The rows inside `[startTime, endTime]`, then at most `limit` of them. */
export function windowed<T>(
  rows: readonly T[],
  time: (r: T) => number,
  q: { startTime?: number | undefined; endTime?: number | undefined; limit: number },
): T[] {
  return rows
    .filter(
      (r) =>
        (q.startTime === undefined || time(r) >= q.startTime) &&
        (q.endTime === undefined || time(r) <= q.endTime),
    )
    .slice(0, q.limit);
}

/** Bitget reports fees as negative amounts (ccxt negates them back). */
export const neg = (fee: string) => (/^0(\.0*)?$/.test(fee) ? "0" : `-${fee}`);

export interface BatchResult {
  successList: unknown[];
  failureList: unknown[];
}

/**
 * Runs `run` for each item in turn; Bitget's batch answer lists what worked and, with
 * its code and message, what did not (ccxt marks those orders rejected).
 */
export async function batch<T>(
  items: readonly T[],
  run: (item: T) => Promise<{ orderId: string; clientOid: string | null }>,
  ref: (item: T) => { orderId: string; clientOid: string },
): Promise<BatchResult> {
  const out: BatchResult = { successList: [], failureList: [] };
  for (const item of items) {
    try {
      out.successList.push(await run(item));
    } catch (error) {
      const e = toBitget(error).body;
      out.failureList.push({ ...ref(item), errorMsg: e.msg, errorCode: e.code });
    }
  }
  return out;
}

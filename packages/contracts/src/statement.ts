import { z } from "./zod-csp.ts";

/**
 * The user's asset movements (/transac): one line per journal entry, wallet and asset
 * (see packages/domain/src/ledger/statement.ts), newest first, paged by entry id.
 */
export const StatementPath = {
  BILLS: "/v1/paper/asset/bills",
  /** Same filters, up to STATEMENT_EXPORT_MAX lines, as CSV. */
  EXPORT: "/v1/paper/asset/bills/export",
} as const;

export const STATEMENT_EXPORT_MAX = 10_000;

/** Types the filter offers; a line may also carry any other journal kind (shown as is). */
export const STATEMENT_FILTER_TYPES = [
  "topup",
  "reset",
  "transfer",
  "trade",
  "fee",
  "funding",
  "interest",
  "borrow",
  "repay",
  "liquidation",
  "realised_pnl",
] as const;
export type StatementFilterType = (typeof STATEMENT_FILTER_TYPES)[number];

export const statementQuerySchema = z
  .object({
    type: z.enum(STATEMENT_FILTER_TYPES).optional(),
    asset: z
      .string()
      .regex(/^[A-Z0-9]{1,16}$/)
      .optional(),
    /** Epoch ms, inclusive. */
    from: z.coerce.number().int().min(0).optional(),
    /** Epoch ms, exclusive. */
    to: z.coerce.number().int().min(1).optional(),
    limit: z.coerce.number().int().min(1).max(200).default(50),
    /** Entries with an id below this (the `next` of the previous page). */
    before: z.coerce.number().int().min(1).optional(),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from < q.to, {
    path: ["to"],
    message: "must be after from",
  });
export type StatementQuery = z.input<typeof statementQuerySchema>;

export interface StatementLineView {
  /** Journal entry id (several lines may share one). */
  id: number;
  time: number;
  type: string;
  /** spot, futures, cross, isolated, or another wallet name. */
  wallet: string;
  symbol: string | null;
  asset: string;
  /** Signed decimal: positive credits the user. */
  amount: string;
}

export interface StatementPage {
  lines: StatementLineView[];
  /** Cursor for the next (older) page; null at the end. */
  next: number | null;
}

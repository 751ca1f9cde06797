import { LOCALES } from "./locales.ts";
import { z } from "./zod-csp.ts";

/**
 * Administrator views beside the content modules: the security reports the browsers send
 * (`POST /v1/buried/log/cspSecurity`) and the page metadata rows behind
 * `getTdkMltQueryList`. Every path is behind the accounts module's admin guard.
 */
export const ADMIN_CONTENT_API = {
  securityReports: "/v1/admin/security-reports",
  pageMeta: "/v1/admin/page-meta",
} as const;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, "a date as YYYY-MM-DD");

/** `GET /v1/admin/security-reports`: newest first; `from`/`to` are UTC days, both inclusive. */
export const securityReportQuerySchema = z
  .object({
    event: z.string().min(1).max(64).optional(),
    from: day.optional(),
    to: day.optional(),
    page: z.coerce.number().int().min(1).max(10_000).default(1),
    pageSize: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: "from must not be after to",
    path: ["from"],
  });
export type SecurityReportQuery = z.infer<typeof securityReportQuerySchema>;

export interface SecurityReportItem {
  id: string;
  /** Server receive time (epoch ms). */
  createdAt: number;
  /** The browser's own clock at the event. */
  clientTs: number;
  bizType: string;
  event: string;
  reason: string;
  page: string;
  /** Browser and system in a few words ("Chrome 131 on Windows"), "" when not sent. */
  userAgentSummary: string;
  userAgent: string;
  /** Set when the report came with a live session. */
  userId: string | null;
}

export interface SecurityReportPage {
  items: SecurityReportItem[];
  total: number;
  page: number;
  pageSize: number;
  /** Reports per event over the date range (the event filter aside), most first. */
  counts: { event: string; count: number }[];
}

/** Keys look like `airdrops.detail`: lower-case words, dots, dashes. */
export const pageMetaKeySchema = z
  .string()
  .min(1)
  .max(80)
  .regex(/^[a-z0-9]+(?:[.-][a-z0-9]+)*$/, "lower-case words joined by dots or dashes");

/** Plain text only: no markup, no control characters (it lands in <title> and <meta>). */
const metaText = (max: number) =>
  z
    .string()
    .max(max)
    .transform((s) => s.replace(/\s+/g, " ").trim())
    .refine((s) => !/[<>]/.test(s), "plain text only (no < or >)")
    .refine((s) => !/\p{Cc}/u.test(s), "no control characters");

/** The locales page metadata is written in: each locale's content language (en, ja, zh-CN, ...). */
export const PAGE_META_LOCALES: readonly string[] = [...new Set(LOCALES.map((l) => l.content))];
const metaLocale = z
  .string()
  .refine((l) => PAGE_META_LOCALES.includes(l), `one of ${PAGE_META_LOCALES.join(", ")}`);

/** `PUT /v1/admin/page-meta`: one row per page key and locale (created or replaced). */
export const pageMetaInputSchema = z.object({
  pageKey: pageMetaKeySchema,
  locale: metaLocale,
  title: metaText(120).refine((s) => s.length > 0, "required"),
  description: metaText(320).refine((s) => s.length > 0, "required"),
  keywords: metaText(400).default(""),
});
export type PageMetaInput = z.infer<typeof pageMetaInputSchema>;

/** `DELETE /v1/admin/page-meta?pageKey=&locale=`: the page falls back to English, then its own defaults. */
export const pageMetaKeyQuerySchema = z.object({ pageKey: pageMetaKeySchema, locale: metaLocale });

export interface PageMetaRow {
  pageKey: string;
  locale: string;
  title: string;
  description: string;
  keywords: string;
  updatedAt: number;
}

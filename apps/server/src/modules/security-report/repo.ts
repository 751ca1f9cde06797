import type { SecurityReportItem, SecurityReportPage, SecurityReportQuery } from "@meridian/contracts";
import type { Db, SqlValue } from "../../platform/db/types.ts";
import { summarizeUserAgent } from "./ua.ts";

export interface SecurityReportRow {
  id: string;
  biz_type: string;
  event: string;
  reason: string;
  page: string;
  client_ts: number;
  user_id: string | null;
  ip: string;
  user_agent: string;
  created_at: number;
}

/** Latest reports first: for the admin area and for tests. */
export function latestReports(db: Db, limit = 100): Promise<SecurityReportRow[]> {
  return db.all<SecurityReportRow>("SELECT * FROM security_reports ORDER BY created_at DESC LIMIT ?", [
    limit,
  ]);
}

const DAY = 86_400_000;

/** The admin list: one page newest first, the total, and counts per event over the same dates. */
export async function listReports(db: Db, q: SecurityReportQuery): Promise<SecurityReportPage> {
  const range: string[] = [];
  const args: SqlValue[] = [];
  if (q.from !== undefined) {
    range.push("created_at >= ?");
    args.push(Date.parse(`${q.from}T00:00:00Z`));
  }
  if (q.to !== undefined) {
    range.push("created_at < ?");
    args.push(Date.parse(`${q.to}T00:00:00Z`) + DAY);
  }
  const where = (extra: string[]) => (extra.length === 0 ? "" : `WHERE ${extra.join(" AND ")}`);
  const filtered = q.event === undefined ? range : [...range, "event = ?"];
  const filteredArgs = q.event === undefined ? args : [...args, q.event];
  const [rows, total, counts] = await Promise.all([
    db.all<SecurityReportRow>(
      `SELECT * FROM security_reports ${where(filtered)} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      [...filteredArgs, q.pageSize, (q.page - 1) * q.pageSize],
    ),
    db.get<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM security_reports ${where(filtered)}`,
      filteredArgs,
    ),
    db.all<{ event: string; n: number | string }>(
      `SELECT event, COUNT(*) AS n FROM security_reports ${where(range)} GROUP BY event ORDER BY n DESC, event`,
      args,
    ),
  ]);
  return {
    items: rows.map(present),
    total: Number(total?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
    counts: counts.map((c) => ({ event: c.event, count: Number(c.n) })),
  };
}

function present(r: SecurityReportRow): SecurityReportItem {
  return {
    id: r.id,
    createdAt: Number(r.created_at),
    clientTs: Number(r.client_ts),
    bizType: r.biz_type,
    event: r.event,
    reason: r.reason,
    page: r.page,
    userAgent: r.user_agent,
    userAgentSummary: summarizeUserAgent(r.user_agent),
    userId: r.user_id,
  };
}

import type { Db } from "../../platform/db/types.ts";

export interface SecurityReportRow {
  id: string;
  biz_type: string;
  event: string;
  reason: string;
  page: string;
  client_ts: number;
  user_id: string | null;
  ip: string;
  created_at: number;
}

/** Latest reports first: for the admin area and for tests. */
export function latestReports(db: Db, limit = 100): Promise<SecurityReportRow[]> {
  return db.all<SecurityReportRow>("SELECT * FROM security_reports ORDER BY created_at DESC LIMIT ?", [
    limit,
  ]);
}

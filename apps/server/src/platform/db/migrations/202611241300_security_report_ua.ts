/**
 * Security reports keep the reporting browser's user agent (for the admin list), and the
 * admin list reads them newest first, optionally by event, over a date range.
 */
export function up(): string[] {
  return [
    "ALTER TABLE security_reports ADD COLUMN user_agent TEXT NOT NULL DEFAULT ''",
    "CREATE INDEX security_reports_created ON security_reports (created_at)",
    "CREATE INDEX security_reports_event_created ON security_reports (event, created_at)",
  ];
}

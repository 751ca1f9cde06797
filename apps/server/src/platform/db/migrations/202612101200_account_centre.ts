/**
 * The account centre: the user's locale (for localised e-mails), a device cookie per
 * browser (devices page, new-device e-mails), the last time a session was seen, the login
 * history (90 days), and no more message outbox (messages go to SMTP or the server log).
 */
export function up(): string[] {
  return [
    "ALTER TABLE users ADD COLUMN locale TEXT NOT NULL DEFAULT 'en'",
    "ALTER TABLE sessions ADD COLUMN device_id TEXT",
    "ALTER TABLE sessions ADD COLUMN last_seen_at BIGINT",
    "CREATE INDEX sessions_user_device_idx ON sessions (user_id, device_id)",
    `CREATE TABLE account_devices (
      user_id TEXT NOT NULL REFERENCES users(id),
      device_id TEXT NOT NULL,
      user_agent TEXT NOT NULL DEFAULT '',
      ip TEXT NOT NULL DEFAULT '',
      first_seen BIGINT NOT NULL,
      last_seen BIGINT NOT NULL,
      PRIMARY KEY (user_id, device_id)
    )`,
    `CREATE TABLE login_history (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id),
      at BIGINT NOT NULL,
      success INTEGER NOT NULL,
      reason TEXT,
      ip TEXT NOT NULL DEFAULT '',
      user_agent TEXT NOT NULL DEFAULT '',
      device_id TEXT
    )`,
    "CREATE INDEX login_history_user_at_idx ON login_history (user_id, at)",
    "DROP TABLE message_outbox",
  ];
}

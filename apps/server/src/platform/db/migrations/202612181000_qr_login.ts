/**
 * QR login: the single-use tokens a login page shows as a QR code. Only a keyed hash of
 * each token is kept; the browser that asked is named by its device id (a hash too).
 */
export function up(): string[] {
  return [
    `CREATE TABLE qr_logins (
      token_hash TEXT PRIMARY KEY,
      device_id TEXT NOT NULL,
      ip TEXT NOT NULL,
      user_agent TEXT NOT NULL,
      status TEXT NOT NULL,
      user_id TEXT REFERENCES users(id),
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      decided_at BIGINT
    )`,
    "CREATE INDEX qr_logins_expires_idx ON qr_logins (expires_at)",
  ];
}

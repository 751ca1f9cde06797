/**
 * Recovery codes: ten per bound authenticator, each usable once in place of its code.
 * Only an HMAC of each code is kept (keyed by the accounts secret), never the code.
 */
export function up(): string[] {
  return [
    `CREATE TABLE recovery_codes (
      user_id TEXT NOT NULL REFERENCES users(id),
      code_hash TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      used_at BIGINT,
      PRIMARY KEY (user_id, code_hash)
    )`,
  ];
}

/**
 * Passkeys (WebAuthn credentials): several per user, named; the signature counter each
 * last reported; and the single-use challenges of registering and signing in.
 */
export function up(): string[] {
  return [
    `CREATE TABLE passkeys (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id),
      public_key TEXT NOT NULL,
      counter BIGINT NOT NULL DEFAULT 0,
      transports TEXT NOT NULL DEFAULT '',
      name TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      last_used_at BIGINT
    )`,
    "CREATE INDEX passkeys_user_idx ON passkeys (user_id)",
    `CREATE TABLE webauthn_challenges (
      challenge TEXT PRIMARY KEY,
      purpose TEXT NOT NULL,
      user_id TEXT,
      expires_at BIGINT NOT NULL
    )`,
  ];
}

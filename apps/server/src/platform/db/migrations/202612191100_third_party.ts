/**
 * Third-party sign-in (docs/accounts.md, "Sign-in with Telegram or an OpenID provider"):
 * - `third_identities`: an identity at a provider (its `sub`, or a Telegram user id) bound
 *   to one account;
 * - `third_flows`: an OpenID sign-in between its start and its callback, named by a keyed
 *   hash of its `state`, with the PKCE verifier (sealed) and the nonce it sent;
 * - `third_tickets`: a verified identity no account has yet, while the browser chooses to
 *   create an account or link one (a keyed hash of the ticket);
 * - `telegram_logins`: the Telegram data already used (its hash), until it is too old anyway;
 * - `login_challenges.bind_identity`: an identity to bind once the login's second step passes.
 */
export function up(): string[] {
  return [
    `CREATE TABLE third_identities (
      provider TEXT NOT NULL,
      subject TEXT NOT NULL,
      user_id TEXT NOT NULL REFERENCES users(id),
      display TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      last_used_at BIGINT,
      PRIMARY KEY (provider, subject)
    )`,
    "CREATE INDEX third_identities_user_idx ON third_identities (user_id)",
    `CREATE TABLE third_flows (
      state_hash TEXT PRIMARY KEY,
      provider TEXT NOT NULL,
      device_id TEXT NOT NULL,
      verifier_enc TEXT NOT NULL,
      nonce TEXT NOT NULL,
      redirect_uri TEXT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    "CREATE INDEX third_flows_expires_idx ON third_flows (expires_at)",
    `CREATE TABLE third_tickets (
      ticket_hash TEXT PRIMARY KEY,
      provider TEXT NOT NULL,
      subject TEXT NOT NULL,
      display TEXT NOT NULL,
      email TEXT,
      device_id TEXT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    "CREATE INDEX third_tickets_expires_idx ON third_tickets (expires_at)",
    `CREATE TABLE telegram_logins (
      hash TEXT PRIMARY KEY,
      expires_at BIGINT NOT NULL
    )`,
    "CREATE INDEX telegram_logins_expires_idx ON telegram_logins (expires_at)",
    "ALTER TABLE login_challenges ADD COLUMN bind_identity TEXT",
  ];
}

import { ddl } from "../ddl.ts";
import type { Dialect } from "../types.ts";

/**
 * API keys of the bot API. The key id is public; the HMAC secret is sealed under the
 * server key (AES-256-GCM, the key id as associated data) and the passphrase is kept as
 * an HMAC under the same root, so a database leak yields neither. `owner_type`/`owner_id`
 * name the paper account the key trades (the user's own, or a sub-account's).
 */
export function up(dialect: Dialect): string[] {
  const t = ddl(dialect);
  return [
    `CREATE TABLE api_keys (
      api_key TEXT PRIMARY KEY,
      user_id TEXT NOT NULL,
      owner_type TEXT NOT NULL,
      owner_id TEXT NOT NULL,
      label TEXT NOT NULL,
      permissions TEXT NOT NULL,
      ips TEXT NOT NULL,
      passphrase_mac TEXT NOT NULL,
      secret_enc TEXT,
      rsa_public_key TEXT,
      created_at ${t.bigint} NOT NULL,
      updated_at ${t.bigint} NOT NULL,
      expires_at ${t.bigint},
      last_used_at ${t.bigint}
    )`,
    "CREATE INDEX api_keys_user ON api_keys (user_id, created_at)",
  ];
}

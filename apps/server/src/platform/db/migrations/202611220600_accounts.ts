import type { Dialect } from "../types.ts";

/**
 * Accounts, sessions, verification codes, login challenges, device keys, the message
 * outbox and security reports. One SQL text for SQLite and PostgreSQL: TEXT ids,
 * BIGINT epoch ms, INTEGER 0/1 flags.
 */
export function up(_dialect: Dialect): string[] {
  return [
    `CREATE TABLE users (
      id TEXT PRIMARY KEY,
      email TEXT UNIQUE,
      area_code TEXT,
      mobile TEXT,
      phone_key TEXT UNIQUE,
      password_hash TEXT NOT NULL,
      nick_name TEXT NOT NULL DEFAULT '',
      role TEXT NOT NULL DEFAULT 'user',
      frozen INTEGER NOT NULL DEFAULT 0,
      email_enable INTEGER NOT NULL DEFAULT 0,
      phone_enable INTEGER NOT NULL DEFAULT 0,
      google_secret_enc TEXT,
      google_pending_enc TEXT,
      google_enable INTEGER NOT NULL DEFAULT 0,
      google_last_step BIGINT NOT NULL DEFAULT 0,
      kyc_level INTEGER NOT NULL DEFAULT 0,
      family_name TEXT NOT NULL DEFAULT '',
      given_name TEXT NOT NULL DEFAULT '',
      country TEXT NOT NULL DEFAULT '',
      anti_phishing_code TEXT NOT NULL DEFAULT '',
      vip_level INTEGER NOT NULL DEFAULT 0,
      user_type INTEGER NOT NULL DEFAULT 0,
      parent_id TEXT,
      open_otc INTEGER NOT NULL DEFAULT 0,
      open_contract INTEGER NOT NULL DEFAULT 0,
      open_gt_fees INTEGER NOT NULL DEFAULT 0,
      is_fund INTEGER NOT NULL DEFAULT 0,
      fund_disabled INTEGER NOT NULL DEFAULT 0,
      switch_flag INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL,
      updated_at BIGINT NOT NULL
    )`,
    `CREATE TABLE sessions (
      token_hash TEXT PRIMARY KEY,
      refresh_hash TEXT NOT NULL UNIQUE,
      user_id TEXT NOT NULL REFERENCES users(id),
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      refresh_expires_at BIGINT NOT NULL,
      revoked_at BIGINT,
      revoke_reason TEXT,
      device_key_id TEXT,
      device_public_key TEXT,
      device_alg TEXT,
      ip TEXT NOT NULL DEFAULT '',
      user_agent TEXT NOT NULL DEFAULT ''
    )`,
    "CREATE INDEX sessions_user_idx ON sessions (user_id)",
    `CREATE TABLE login_challenges (
      id_hash TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id),
      methods TEXT NOT NULL,
      device_public_key TEXT,
      device_alg TEXT,
      attempts INTEGER NOT NULL DEFAULT 0,
      expires_at BIGINT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE verify_codes (
      id TEXT PRIMARY KEY,
      target TEXT NOT NULL,
      purpose TEXT NOT NULL,
      code_hash TEXT NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      expires_at BIGINT NOT NULL,
      consumed_at BIGINT,
      created_at BIGINT NOT NULL
    )`,
    "CREATE INDEX verify_codes_target_idx ON verify_codes (target, purpose, created_at)",
    `CREATE TABLE user_devices (
      user_hash TEXT NOT NULL,
      key_id TEXT NOT NULL,
      user_id TEXT NOT NULL REFERENCES users(id),
      public_key TEXT NOT NULL,
      alg TEXT NOT NULL,
      last_used_at BIGINT NOT NULL,
      PRIMARY KEY (user_hash, key_id)
    )`,
    `CREATE TABLE kyc_submissions (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users(id),
      level INTEGER NOT NULL,
      country TEXT NOT NULL DEFAULT '',
      document_hash TEXT NOT NULL DEFAULT '',
      document_last4 TEXT NOT NULL DEFAULT '',
      address_line TEXT NOT NULL DEFAULT '',
      city TEXT NOT NULL DEFAULT '',
      status TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE message_outbox (
      id TEXT PRIMARY KEY,
      channel TEXT NOT NULL,
      recipient TEXT NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE security_reports (
      id TEXT PRIMARY KEY,
      biz_type TEXT NOT NULL,
      event TEXT NOT NULL,
      reason TEXT NOT NULL,
      page TEXT NOT NULL,
      client_ts BIGINT NOT NULL,
      user_id TEXT,
      ip TEXT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
  ];
}

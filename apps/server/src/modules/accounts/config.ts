import crypto from "node:crypto";
import { z } from "zod";
import { ConfigError, parseEnv } from "../../platform/config.ts";

const flag = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** An issuer over https; plain http only on this machine (a provider run beside the server, in tests). */
const issuerUrl = z.url().refine((text) => {
  const u = new URL(text);
  return u.protocol === "https:" || (u.protocol === "http:" && LOOPBACK.has(u.hostname));
}, "https, or http on localhost");
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

const oidcProviderSchema = z.strictObject({
  id: z
    .string()
    .regex(/^[a-z][a-z0-9-]{0,31}$/)
    .refine((id) => id !== "telegram", "reserved"),
  name: z.string().trim().min(1).max(40),
  issuer: issuerUrl,
  clientId: z.string().min(1).max(512),
  clientSecret: z.string().min(1).max(2_048),
});

/** An OpenID Connect provider users may sign in with. */
export type OidcProviderConfig = z.infer<typeof oidcProviderSchema>;

/** Third-party sign-in as configured: the OpenID providers, and Telegram's bot when set. */
export interface ThirdPartyConfig {
  oidc: OidcProviderConfig[];
  telegram: { botToken: string; botName: string } | undefined;
}

const envSchema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  /** 32+ random bytes, base64: root of the TOTP encryption key and the code HMAC key. Required in production. */
  ACCOUNTS_SECRET: z.string().min(43).optional(),
  /** Demo data (and the demo accounts) on start; on unless NODE_ENV=test (platform/config.ts reads it too). */
  SEED_DEMO_DATA: flag,
  /** smtp(s)://user:pass@host:port: account messages go out by mail instead of the log. */
  SMTP_URL: z.url({ protocol: /^smtps?$/ }).optional(),
  SMTP_FROM: z.string().default("Meridian <no-reply@meridian.example>"),
  /** The site's hosts (platform/config.ts reads them too): the first names the passkeys' relying party. */
  PUBLIC_DOMAINS: z.string().optional(),
  PORT: z.string().optional(),
  /** OpenID providers for sign-in: a JSON array (docs/operations.md, "Third-party sign-in"). */
  OIDC_PROVIDERS: z
    .string()
    .optional()
    .transform((text, ctx) => {
      if (text === undefined || text.trim() === "") return [];
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "not JSON" });
        return z.NEVER;
      }
    })
    .pipe(
      z
        .array(oidcProviderSchema)
        .max(16)
        .refine((list) => new Set(list.map((p) => p.id)).size === list.length, "ids must differ"),
    ),
  /** The Telegram bot whose Login Widget signs users in (both or neither). */
  TELEGRAM_BOT_TOKEN: z
    .string()
    .regex(/^\d{1,20}:[A-Za-z0-9_-]{20,100}$/)
    .optional(),
  TELEGRAM_BOT_NAME: z
    .string()
    .regex(/^[A-Za-z0-9_]{3,64}$/)
    .optional(),
});

/** The relying party passkeys are made for: its id (a host, no port) and the origins it answers on. */
export interface WebAuthnParty {
  rpID: string;
  origins: string[];
}

/**
 * The relying party of the configured public hosts: the first host's name is the id (a
 * passkey made on it works on its subdomains too); every host is an accepted origin over
 * https, and over http where no TLS is expected (localhost, 127.0.0.1, or outside
 * production). Without PUBLIC_DOMAINS the server's own listen address is the host, as
 * platform/config.ts does.
 */
export function webAuthnParty(
  publicDomains: string | undefined,
  port: string | undefined,
  isProduction: boolean,
) {
  const hosts = (publicDomains ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
  if (hosts.length === 0) hosts.push(`localhost:${port ?? "3000"}`, `127.0.0.1:${port ?? "3000"}`);
  const name = (host: string) => host.replace(/:\d+$/, "");
  const origins = hosts.flatMap((h) => {
    const local = name(h) === "localhost" || name(h) === "127.0.0.1";
    return !isProduction || local ? [`https://${h}`, `http://${h}`] : [`https://${h}`];
  });
  return { rpID: name(hosts[0] ?? "localhost"), origins } satisfies WebAuthnParty;
}

export interface AccountsConfig {
  isProduction: boolean;
  /** AES-256-GCM key for TOTP secrets at rest. */
  totpKey: Buffer;
  /** HMAC key for verification codes and challenge ids at rest. */
  codeKey: Buffer;
  /**
   * Where messages go: SMTP when SMTP_URL is set; else the server log in development and
   * demo mode; else nowhere (production without demo data must set SMTP_URL).
   */
  mail: "smtp" | "log" | "drop";
  /** Demo mode: demo data and the demo accounts are seeded on first start. */
  demo: boolean;
  smtpUrl: string | undefined;
  smtpFrom: string;
  webauthn: WebAuthnParty;
  third: ThirdPartyConfig;
}

/** A fixed root for development and tests only. */
const DEV_SECRET = "meridian-development-accounts-secret-not-for-production";

/**
 * NOTE: production without ACCOUNTS_SECRET never uses the public development root: it
 * makes a random one for this process and warns. Authenticator secrets sealed under it
 * cannot be opened after a restart, so real deployments must set ACCOUNTS_SECRET.
 */
export function loadAccountsConfig(
  env: NodeJS.ProcessEnv = process.env,
  warn: (msg: string) => void = console.warn,
): AccountsConfig {
  const e = parseEnv(envSchema, env);
  const isProduction = e.NODE_ENV === "production";
  if ((e.TELEGRAM_BOT_TOKEN === undefined) !== (e.TELEGRAM_BOT_NAME === undefined))
    throw new ConfigError("Invalid environment: TELEGRAM_BOT_TOKEN and TELEGRAM_BOT_NAME go together");
  const demo = env.SEED_DEMO_DATA === undefined ? e.NODE_ENV !== "test" : e.SEED_DEMO_DATA;
  let root: Buffer;
  if (e.ACCOUNTS_SECRET !== undefined) root = Buffer.from(e.ACCOUNTS_SECRET, "base64");
  else if (isProduction) {
    warn(
      "ACCOUNTS_SECRET is not set: using a random per-process secret (authenticator bindings will not survive a restart)",
    );
    root = crypto.randomBytes(32);
  } else root = Buffer.from(DEV_SECRET);
  const derive = (info: string) =>
    Buffer.from(crypto.hkdfSync("sha256", root, "meridian-accounts", info, 32));
  return {
    isProduction,
    totpKey: derive("totp-secret-at-rest"),
    codeKey: derive("verification-codes"),
    mail: e.SMTP_URL !== undefined ? "smtp" : !isProduction || demo ? "log" : "drop",
    demo,
    smtpUrl: e.SMTP_URL,
    smtpFrom: e.SMTP_FROM,
    webauthn: webAuthnParty(e.PUBLIC_DOMAINS, e.PORT, isProduction),
    third: {
      oidc: e.OIDC_PROVIDERS,
      telegram:
        e.TELEGRAM_BOT_TOKEN === undefined || e.TELEGRAM_BOT_NAME === undefined
          ? undefined
          : { botToken: e.TELEGRAM_BOT_TOKEN, botName: e.TELEGRAM_BOT_NAME },
    },
  };
}

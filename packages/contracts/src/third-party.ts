import { z } from "./zod-csp.ts";

/**
 * Third-party sign-in (docs/accounts.md, "Sign-in with Telegram or an OpenID provider"):
 * every path is under `/v1/user/public/third/`, encrypted like the other login paths.
 */
export const ThirdPartyCode = {
  /** The callback's `state` names no sign-in this browser started, or one already used or expired (HTTP 400). */
  STATE_INVALID: "11060",
  /** The provider's `iss` (callback parameter or ID token) is not the configured issuer (HTTP 400). */
  ISSUER_INVALID: "11061",
  /** The ID token's `nonce` is not the one this sign-in sent (HTTP 400). */
  NONCE_INVALID: "11062",
  /** Any other refused provider answer: an error callback, a refused code exchange, a bad ID token (HTTP 400). */
  RESPONSE_INVALID: "11063",
  /** Telegram data whose hash is not the bot's HMAC of it (HTTP 400). */
  TELEGRAM_HASH_INVALID: "11064",
  /** Telegram data more than a day old, or dated in the future (HTTP 400). */
  TELEGRAM_STALE: "11065",
  /** Telegram data that was used before (HTTP 409). */
  TELEGRAM_REPLAYED: "11066",
  /** No provider of that name is configured (HTTP 404). */
  PROVIDER_UNKNOWN: "11067",
  /** The sign-in ticket (create or link an account) is unknown, used, expired or another browser's (HTTP 400). */
  TICKET_INVALID: "11068",
  /** That identity is already bound to an account (HTTP 409). */
  IDENTITY_BOUND: "11069",
  /** Unbinding it would leave the account no way in: no password, passkey or other identity (HTTP 409). */
  LAST_WAY_IN: "11070",
} as const;

/** Telegram's provider name; OpenID providers use the ids of their configuration. */
export const TELEGRAM_PROVIDER = "telegram";
/** An OpenID provider's id in the configuration and in paths: lower-case letters, digits, dashes. */
export const providerIdSchema = z.string().regex(/^[a-z][a-z0-9-]{0,31}$/);

/** How long Telegram's signed data is accepted after its `auth_date`. */
export const TELEGRAM_MAX_AGE_S = 24 * 60 * 60;
/** How long an OpenID sign-in may take between the start and the callback. */
export const THIRD_FLOW_TTL_MS = 10 * 60_000;
/** How long the browser may take to create or link an account for a new identity. */
export const THIRD_TICKET_TTL_MS = 10 * 60_000;

/** The page each provider sends the browser back to (`/third-login/google`, `/third-login/telegram`). */
export const THIRD_CALLBACK_PATH = "/third-login";

/** `GET /v1/user/public/third/providers`: what the login and sign-up pages offer. */
export interface ThirdProviders {
  oidc: { id: string; name: string }[];
  /** The bot whose Login Widget the pages show; null when Telegram is not configured. */
  telegram: { botName: string } | null;
}

export const oidcStartBody = z.object({ provider: providerIdSchema });
/** The callback's query string as the browser received it (`code`, `state`, `iss`, or `error`). */
export const oidcLoginBody = z.object({
  provider: providerIdSchema,
  callback: z.string().min(1).max(4_096),
});

const tgName = z.string().min(1).max(256);
/** The Login Widget's data, as Telegram signed it (the field names are Telegram's). */
export const telegramLoginBody = z.object({
  id: z.string().regex(/^\d{1,20}$/),
  first_name: tgName.optional(),
  last_name: tgName.optional(),
  username: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,64}$/)
    .optional(),
  photo_url: z.string().max(1_024).optional(),
  auth_date: z.string().regex(/^\d{1,12}$/),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});
export type TelegramLoginBody = z.infer<typeof telegramLoginBody>;

/** A sign-in ticket: 32 random bytes, base64url (`token` is a sensitive field: it travels encrypted). */
const ticket = z.string().regex(/^[A-Za-z0-9_-]{43}$/);
export const thirdTicketBody = z.object({ token: ticket });
/** Linking a new identity to an existing account: that account's password first. */
export const thirdBindBody = z.object({
  token: ticket,
  loginName: z.string().min(3).max(254),
  areaCode: z
    .string()
    .regex(/^\+?\d{1,4}$/)
    .optional(),
  pwd: z.string().min(1).max(128),
});
export type ThirdBindBody = z.infer<typeof thirdBindBody>;

/** An identity no account has yet: the page offers to create an account or link one. */
export interface ThirdTicket {
  bindRequired: true;
  token: string;
  provider: string;
  /** What the provider calls the user (an e-mail or a Telegram name). */
  display: string;
  expiresAt: number;
}

/** `POST /v1/user/public/third/check`: what a ticket is about, while it is good. */
export interface ThirdTicketInfo {
  provider: string;
  display: string;
  expiresAt: number;
}

/** An identity bound to the account, as the security page lists it. */
export interface ThirdIdentityDto {
  provider: string;
  /** The provider's display name ("Google", "Telegram"). */
  name: string;
  display: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export const thirdUnbindBody = z.object({ provider: providerIdSchema });

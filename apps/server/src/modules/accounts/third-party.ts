import crypto from "node:crypto";
import {
  TELEGRAM_MAX_AGE_S,
  TELEGRAM_PROVIDER,
  type TelegramLoginBody,
  THIRD_CALLBACK_PATH,
  THIRD_FLOW_TTL_MS,
  THIRD_TICKET_TTL_MS,
  type ThirdIdentityDto,
  ThirdPartyCode,
  type ThirdProviders,
  type ThirdTicket,
  type ThirdTicketInfo,
} from "@meridian/contracts";
import * as oidc from "openid-client";
import type { Db } from "../../platform/db/types.ts";
import { BusinessError } from "../../platform/errors.ts";
import type { OidcProviderConfig, ThirdPartyConfig } from "./config.ts";
import { hmacHex, newToken, open, seal, sha256Hex } from "./secrets.ts";
import { type ThirdIdentity, ThirdPartyRepo } from "./third-party-repo.ts";

export type { ThirdIdentity } from "./third-party-repo.ts";

type Failure =
  | "state"
  | "issuer"
  | "nonce"
  | "response"
  | "hash"
  | "stale"
  | "replayed"
  | "provider"
  | "ticket";

const FAILURES: Record<Failure, [code: string, status: number, msg: string]> = {
  state: [ThirdPartyCode.STATE_INVALID, 400, "This sign-in was not started here, or it was used or expired"],
  issuer: [ThirdPartyCode.ISSUER_INVALID, 400, "The answer does not come from the configured issuer"],
  nonce: [ThirdPartyCode.NONCE_INVALID, 400, "The ID token was not issued for this sign-in"],
  response: [ThirdPartyCode.RESPONSE_INVALID, 400, "The provider's answer was refused"],
  hash: [ThirdPartyCode.TELEGRAM_HASH_INVALID, 400, "The Telegram data is not signed by the bot"],
  stale: [ThirdPartyCode.TELEGRAM_STALE, 400, "The Telegram data is more than a day old"],
  replayed: [ThirdPartyCode.TELEGRAM_REPLAYED, 409, "This Telegram data was used before"],
  provider: [ThirdPartyCode.PROVIDER_UNKNOWN, 404, "No such sign-in provider"],
  ticket: [ThirdPartyCode.TICKET_INVALID, 400, "This sign-in has expired; start again"],
};

export function thirdError(failure: Failure): BusinessError {
  const [code, status, msg] = FAILURES[failure];
  return new BusinessError(code, msg, { status });
}

/** The codes a refused sign-in answers (each counts against the limits and is written to the history). */
export const THIRD_FAILURE_CODES: ReadonlySet<string> = new Set(
  (["state", "issuer", "nonce", "response", "hash", "stale", "replayed"] as const).map((f) => FAILURES[f][0]),
);

/** Which check of the provider's answer failed, read from openid-client's error and its causes. */
function oidcFailure(err: unknown): Failure {
  if (err instanceof oidc.AuthorizationResponseError) return "response";
  const texts: string[] = [];
  let claim: unknown;
  let at: unknown = err;
  for (let depth = 0; depth < 5 && at instanceof Error; depth++) {
    texts.push(at.message);
    const cause: unknown = at.cause;
    if (typeof cause === "object" && cause !== null && "claim" in cause) claim ??= cause.claim;
    at = cause;
  }
  if (claim === "nonce") return "nonce";
  if (claim === "iss" || texts.some((t) => t.includes('"iss"'))) return "issuer";
  if (texts.some((t) => t.includes('"state"'))) return "state";
  return "response";
}

/**
 * The Login Widget's check (core.telegram.org/widgets/login): the fields but `hash`,
 * sorted, `key=value` a line, HMAC-SHA256 under SHA-256 of the bot token.
 */
export function telegramHash(data: Record<string, string | undefined>, botToken: string): string {
  const text = Object.entries(data)
    .filter((e): e is [string, string] => e[0] !== "hash" && e[1] !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join("\n");
  const key = crypto.createHash("sha256").update(botToken).digest();
  return crypto.createHmac("sha256", key).update(text).digest("hex");
}

export interface ThirdPartyDeps {
  db: Db;
  config: ThirdPartyConfig;
  codeKey: Buffer;
  sealKey: Buffer;
  /** The site's origins: a redirect URI names one of them, never a host the client made up. */
  origins: readonly string[];
  now: () => number;
}

/**
 * Third-party identities: OpenID Connect (authorization code with PKCE, state and nonce,
 * through openid-client) and Telegram's Login Widget. This class verifies a sign-in and
 * keeps the bindings; the accounts service decides what a verified identity logs into.
 */
export class ThirdPartySignIn {
  readonly repo: ThirdPartyRepo;
  readonly #d: ThirdPartyDeps;
  readonly #discovered = new Map<string, Promise<oidc.Configuration>>();

  constructor(deps: ThirdPartyDeps) {
    this.#d = deps;
    this.repo = new ThirdPartyRepo(deps.db);
  }

  providers(): ThirdProviders {
    const tg = this.#d.config.telegram;
    return {
      oidc: this.#d.config.oidc.map((p) => ({ id: p.id, name: p.name })),
      telegram: tg === undefined ? null : { botName: tg.botName },
    };
  }

  /** A provider's display name ("Google", "Telegram"); the id when it is no longer configured. */
  nameOf(provider: string): string {
    if (provider === TELEGRAM_PROVIDER) return "Telegram";
    return this.#d.config.oidc.find((p) => p.id === provider)?.name ?? provider;
  }

  #provider(id: string): OidcProviderConfig {
    const p = this.#d.config.oidc.find((c) => c.id === id);
    if (p === undefined) throw thirdError("provider");
    return p;
  }

  /** The provider's metadata, discovered once (again after a failure: the provider may have been down). */
  #configuration(p: OidcProviderConfig): Promise<oidc.Configuration> {
    let found = this.#discovered.get(p.id);
    if (found === undefined) {
      const url = new URL(p.issuer);
      const options = url.protocol === "http:" ? { execute: [oidc.allowInsecureRequests] } : undefined;
      found = oidc.discovery(url, p.clientId, p.clientSecret, undefined, options);
      this.#discovered.set(p.id, found);
      found.catch(() => this.#discovered.delete(p.id));
    }
    return found.catch(() => {
      throw new BusinessError(ThirdPartyCode.RESPONSE_INVALID, "The sign-in provider cannot be reached", {
        status: 502,
      });
    });
  }

  /**
   * Starts an OpenID sign-in: a fresh state, nonce and PKCE verifier kept for this browser
   * (10 minutes, one callback), and the provider's authorization URL to send it to.
   */
  async start(
    providerId: string,
    origin: string | undefined,
    deviceId: string,
  ): Promise<{ authorizationUrl: string }> {
    const p = this.#provider(providerId);
    const config = await this.#configuration(p);
    const base = origin !== undefined && this.#d.origins.includes(origin) ? origin : this.#d.origins[0];
    const redirectUri = `${base}${THIRD_CALLBACK_PATH}/${p.id}`;
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const stateHash = hmacHex(this.#d.codeKey, `oidc-state:${state}`);
    const now = this.#d.now();
    await this.repo.insertFlow(
      {
        state_hash: stateHash,
        provider: p.id,
        device_id: deviceId,
        verifier_enc: seal(this.#d.sealKey, verifier, `oidc:${stateHash}`),
        nonce,
        redirect_uri: redirectUri,
        expires_at: now + THIRD_FLOW_TTL_MS,
      },
      now,
    );
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: "openid email profile",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
    });
    return { authorizationUrl: url.href };
  }

  /**
   * The callback: its state must name a flow this browser started for this provider (spent
   * now, right or wrong); openid-client then checks the issuer, exchanges the code with the
   * PKCE verifier and checks the ID token (signature, audience, nonce).
   */
  async callback(providerId: string, query: string, deviceId: string): Promise<ThirdIdentity> {
    const p = this.#provider(providerId);
    const params = new URLSearchParams(query.replace(/^\?/, ""));
    const state = params.get("state");
    if (state === null || state.length > 512) throw thirdError("state");
    const stateHash = hmacHex(this.#d.codeKey, `oidc-state:${state}`);
    const flow = await this.repo.takeFlow(stateHash);
    if (
      flow === undefined ||
      flow.provider !== p.id ||
      flow.device_id !== deviceId ||
      flow.expires_at < this.#d.now()
    )
      throw thirdError("state");
    const config = await this.#configuration(p);
    const current = new URL(flow.redirect_uri);
    current.search = params.toString();
    let claims: oidc.IDToken | undefined;
    try {
      const tokens = await oidc.authorizationCodeGrant(config, current, {
        pkceCodeVerifier: open(this.#d.sealKey, flow.verifier_enc, `oidc:${stateHash}`),
        expectedState: state,
        expectedNonce: flow.nonce,
        idTokenExpected: true,
      });
      claims = tokens.claims();
    } catch (err) {
      throw thirdError(oidcFailure(err));
    }
    if (claims === undefined) throw thirdError("response");
    const email = typeof claims.email === "string" ? claims.email.toLowerCase() : null;
    const named = [email, claims.preferred_username, claims.name].find(
      (v): v is string => typeof v === "string" && v !== "",
    );
    return {
      provider: p.id,
      subject: claims.sub,
      display: named ?? claims.sub,
      email: email !== null && claims.email_verified === true ? email : null,
    };
  }

  /**
   * Telegram's data: the bot's HMAC, at most a day old, and never twice (the hash is kept
   * until the data would be too old anyway).
   */
  async telegram(body: TelegramLoginBody): Promise<ThirdIdentity> {
    const tg = this.#d.config.telegram;
    if (tg === undefined) throw thirdError("provider");
    const expected = telegramHash(body, tg.botToken);
    if (!crypto.timingSafeEqual(Buffer.from(expected, "hex"), Buffer.from(body.hash, "hex")))
      throw thirdError("hash");
    const nowS = Math.floor(this.#d.now() / 1000);
    const authDate = Number(body.auth_date);
    // A minute of clock difference either way; a day at most.
    if (authDate > nowS + 60 || nowS - authDate > TELEGRAM_MAX_AGE_S) throw thirdError("stale");
    const until = (authDate + TELEGRAM_MAX_AGE_S + 60) * 1000;
    if (!(await this.repo.useTelegram(sha256Hex(body.hash), until, this.#d.now())))
      throw thirdError("replayed");
    const name = [body.first_name, body.last_name].filter((v) => v !== undefined).join(" ");
    return {
      provider: TELEGRAM_PROVIDER,
      subject: body.id,
      display: body.username === undefined ? name || body.id : `@${body.username}`,
      email: null,
    };
  }

  /** A verified identity no account has: a ticket for this browser to create or link an account. */
  async issueTicket(identity: ThirdIdentity, deviceId: string): Promise<ThirdTicket> {
    const token = newToken();
    const now = this.#d.now();
    const expiresAt = now + THIRD_TICKET_TTL_MS;
    await this.repo.insertTicket(
      hmacHex(this.#d.codeKey, `third-ticket:${token}`),
      { ...identity, device_id: deviceId, expires_at: expiresAt },
      now,
    );
    return { bindRequired: true, token, provider: identity.provider, display: identity.display, expiresAt };
  }

  async #ticket(token: string, deviceId: string) {
    const hash = hmacHex(this.#d.codeKey, `third-ticket:${token}`);
    const row = await this.repo.ticket(hash);
    if (row === undefined || row.device_id !== deviceId || row.expires_at < this.#d.now())
      throw thirdError("ticket");
    return { hash, row };
  }

  async checkTicket(token: string, deviceId: string): Promise<ThirdTicketInfo> {
    const { row } = await this.#ticket(token, deviceId);
    return { provider: row.provider, display: row.display, expiresAt: row.expires_at };
  }

  /** The ticket's identity; `spend` deletes the ticket (once: a second use fails). */
  async ticketIdentity(token: string, deviceId: string, spend: boolean): Promise<ThirdIdentity> {
    const { hash, row } = await this.#ticket(token, deviceId);
    if (spend && !(await this.repo.spendTicket(hash))) throw thirdError("ticket");
    return { provider: row.provider, subject: row.subject, display: row.display, email: row.email };
  }

  async list(userId: string): Promise<ThirdIdentityDto[]> {
    return (await this.repo.list(userId)).map((r) => ({
      provider: r.provider,
      name: this.nameOf(r.provider),
      display: r.display,
      createdAt: r.created_at,
      lastUsedAt: r.last_used_at,
    }));
  }
}

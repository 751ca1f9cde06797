import { AccountCode, type PasskeyDto } from "@meridian/contracts";
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Db } from "../../platform/db/types.ts";
import { BusinessError } from "../../platform/errors.ts";
import type { WebAuthnParty } from "./config.ts";
import { hmacHex } from "./secrets.ts";

/** A ceremony's challenge lives as long as the browser's prompt may stay open. */
const CHALLENGE_TTL_MS = 5 * 60_000;
export const MAX_PASSKEYS = 10;

/** What a ceremony is for: the challenge is spent only by the same purpose (and user). */
type Purpose = "register" | "login" | "second" | "stepup" | "reset";

interface PasskeyRow {
  id: string;
  user_id: string;
  public_key: string;
  counter: number | string;
  transports: string;
  name: string;
  created_at: number | string;
  last_used_at: number | string | null;
}

/** A passkey assertion or registration that does not verify: HTTP 400, counted by the caller. */
export function passkeyInvalid(reason: string): BusinessError {
  return new BusinessError(AccountCode.PASSKEY_INVALID, `Passkey not accepted: ${reason}`, { status: 400 });
}

function parseCredential<T>(json: string): T {
  try {
    const value = JSON.parse(json) as unknown;
    if (typeof value === "object" && value !== null && typeof (value as { id?: unknown }).id === "string")
      return value as T;
  } catch {
    // answered below
  }
  throw passkeyInvalid("malformed credential");
}

/**
 * Passkeys of the accounts (WebAuthn through @simplewebauthn/server): registration,
 * discoverable sign-in and the second login step. Every challenge is stored and spent once;
 * the signature counter only moves forward (one conditional UPDATE), so a cloned
 * authenticator's replayed or older counter is refused.
 */
export class Passkeys {
  readonly #db: Db;
  readonly #party: WebAuthnParty;
  readonly #key: Buffer;
  readonly #now: () => number;

  constructor(db: Db, party: WebAuthnParty, key: Buffer, now: () => number) {
    this.#db = db;
    this.#party = party;
    this.#key = key;
    this.#now = now;
  }

  async #store(challenge: string, purpose: Purpose, userId: string | null): Promise<void> {
    const now = this.#now();
    await this.#db.run("DELETE FROM webauthn_challenges WHERE expires_at < ?", [now]);
    await this.#db.run(
      "INSERT INTO webauthn_challenges (challenge, purpose, user_id, expires_at) VALUES (?, ?, ?, ?)",
      [challenge, purpose, userId, now + CHALLENGE_TTL_MS],
    );
  }

  /** Spends a stored challenge; true only once, for its purpose and user, before it expires. */
  async #spend(challenge: string, purpose: Purpose, userId: string | null): Promise<boolean> {
    const res = await this.#db.run(
      `DELETE FROM webauthn_challenges WHERE challenge = ? AND purpose = ? AND expires_at >= ? AND ${
        userId === null ? "user_id IS NULL" : "user_id = ?"
      }`,
      userId === null ? [challenge, purpose, this.#now()] : [challenge, purpose, this.#now(), userId],
    );
    return res.changes === 1;
  }

  /** The user a credential names (undefined for an unknown or malformed one): counters and history. */
  async ownerOf(credentialJson: string): Promise<string | undefined> {
    let id: unknown;
    try {
      id = (JSON.parse(credentialJson) as { id?: unknown }).id;
    } catch {
      return undefined;
    }
    if (typeof id !== "string") return undefined;
    const row = await this.#db.get<{ user_id: string }>("SELECT user_id FROM passkeys WHERE id = ?", [id]);
    return row?.user_id;
  }

  async list(userId: string): Promise<PasskeyDto[]> {
    const rows = await this.#db.all<PasskeyRow>(
      "SELECT * FROM passkeys WHERE user_id = ? ORDER BY created_at",
      [userId],
    );
    return rows.map((r) => ({
      id: r.id,
      name: r.name,
      createdAt: Number(r.created_at),
      lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
    }));
  }

  async count(userId: string): Promise<number> {
    const row = await this.#db.get<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM passkeys WHERE user_id = ?",
      [userId],
    );
    return Number(row?.n ?? 0);
  }

  async remove(userId: string, id: string): Promise<boolean> {
    const res = await this.#db.run("DELETE FROM passkeys WHERE id = ? AND user_id = ?", [id, userId]);
    return res.changes === 1;
  }

  /** Options for a new passkey of `user` (a discoverable credential, so it can sign in alone). */
  async registrationOptions(user: {
    id: string;
    name: string;
  }): Promise<PublicKeyCredentialCreationOptionsJSON> {
    const existing = await this.#db.all<PasskeyRow>("SELECT id, transports FROM passkeys WHERE user_id = ?", [
      user.id,
    ]);
    if (existing.length >= MAX_PASSKEYS)
      throw new BusinessError(AccountCode.PASSKEY_INVALID, `At most ${MAX_PASSKEYS} passkeys per account`, {
        status: 400,
      });
    const options = await generateRegistrationOptions({
      rpName: "Meridian",
      rpID: this.#party.rpID,
      userName: user.name,
      // Stable per user and meaningless outside this server: the authenticator replaces, not adds.
      userID: Buffer.from(hmacHex(this.#key, `webauthn-user:${user.id}`).slice(0, 32), "hex"),
      attestationType: "none",
      excludeCredentials: existing.map((r) => ({
        id: r.id,
        ...(r.transports === "" ? {} : { transports: r.transports.split(",") }),
      })),
      authenticatorSelection: { residentKey: "required", userVerification: "preferred" },
    });
    await this.#store(options.challenge, "register", user.id);
    return options;
  }

  async register(userId: string, name: string, credentialJson: string): Promise<PasskeyDto> {
    const response = parseCredential<RegistrationResponseJSON>(credentialJson);
    let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
    try {
      verified = await verifyRegistrationResponse({
        response,
        expectedChallenge: (c) => this.#spend(c, "register", userId),
        expectedOrigin: this.#party.origins,
        expectedRPID: this.#party.rpID,
        requireUserVerification: false,
      });
    } catch (err) {
      throw passkeyInvalid(err instanceof Error ? err.message : "not verified");
    }
    if (!verified.verified) throw passkeyInvalid("not verified");
    const { credential } = verified.registrationInfo;
    const now = this.#now();
    const res = await this.#db.run(
      `INSERT INTO passkeys (id, user_id, public_key, counter, transports, name, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [
        credential.id,
        userId,
        Buffer.from(credential.publicKey).toString("base64url"),
        credential.counter,
        (credential.transports ?? []).join(","),
        name,
        now,
      ],
    );
    if (res.changes !== 1) throw passkeyInvalid("this passkey is already registered");
    return { id: credential.id, name, createdAt: now, lastUsedAt: null };
  }

  /** Options to sign in with any passkey of this site (the authenticator offers its accounts). */
  async loginOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: this.#party.rpID,
      userVerification: "preferred",
    });
    await this.#store(options.challenge, "login", null);
    return options;
  }

  /**
   * Options for the logged-out password reset: any passkey of the site, like signing in (the
   * caller has not proved the inbox yet, so nothing about the account is revealed); the
   * reset checks that the passkey is the account's.
   */
  async resetOptions(): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const options = await generateAuthenticationOptions({
      rpID: this.#party.rpID,
      userVerification: "preferred",
    });
    await this.#store(options.challenge, "reset", null);
    return options;
  }

  /** Options for the second login step (or a step-up) of `userId`: only that user's passkeys are offered. */
  async secondStepOptions(
    userId: string,
    purpose: "second" | "stepup" = "second",
  ): Promise<PublicKeyCredentialRequestOptionsJSON> {
    const rows = await this.#db.all<PasskeyRow>("SELECT id, transports FROM passkeys WHERE user_id = ?", [
      userId,
    ]);
    const options = await generateAuthenticationOptions({
      rpID: this.#party.rpID,
      userVerification: "preferred",
      allowCredentials: rows.map((r) => ({
        id: r.id,
        ...(r.transports === "" ? {} : { transports: r.transports.split(",") }),
      })),
    });
    await this.#store(options.challenge, purpose, userId);
    return options;
  }

  /** The owner of the passkey that signed `credentialJson`, or a thrown `passkeyInvalid`. */
  async authenticate(
    credentialJson: string,
    purpose: "login" | "second" | "stepup" | "reset",
    userId: string | null,
    /** The account the passkey must belong to when the challenge names none (the reset). */
    owner: string | null = userId,
  ): Promise<string> {
    const response = parseCredential<AuthenticationResponseJSON>(credentialJson);
    const row = await this.#db.get<PasskeyRow>("SELECT * FROM passkeys WHERE id = ?", [response.id]);
    if (row === undefined || (owner !== null && row.user_id !== owner))
      throw passkeyInvalid("unknown passkey");
    const stored = Number(row.counter);
    let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
    try {
      result = await verifyAuthenticationResponse({
        response,
        expectedChallenge: (c) => this.#spend(c, purpose, userId),
        expectedOrigin: this.#party.origins,
        expectedRPID: this.#party.rpID,
        credential: {
          id: row.id,
          publicKey: Buffer.from(row.public_key, "base64url"),
          counter: stored,
          ...(row.transports === "" ? {} : { transports: row.transports.split(",") }),
        },
        requireUserVerification: false,
      });
    } catch (err) {
      throw passkeyInvalid(err instanceof Error ? err.message : "not verified");
    }
    if (!result.verified) throw passkeyInvalid("not verified");
    const next = result.authenticationInfo.newCounter;
    // Authenticators without a counter report 0 always; any other value must move forward,
    // also against a parallel use of the same passkey.
    const res = await this.#db.run(
      "UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ? AND (counter < ? OR (counter = 0 AND ? = 0))",
      [next, this.#now(), row.id, next, next],
    );
    if (res.changes !== 1) throw passkeyInvalid("signature counter went backwards");
    return row.user_id;
  }
}

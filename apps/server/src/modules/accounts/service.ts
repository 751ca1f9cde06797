import crypto from "node:crypto";
import {
  AccountCode,
  Code,
  deviceCheckPayload,
  type KycSubmitBody,
  type LoginBody,
  type LoginChallenge,
  type RegisterMobileAndEmailBody,
  type SendCodeBody,
  SIGN_WINDOW_MS,
  type VerifyLoginBody,
  type VerifyMethod,
} from "@meridian/contracts";
import { verifyDeviceSignature } from "../gateway-sign/device-key.ts";
import { type CodeTarget, emailTarget, maskAddress, phoneTarget, VerificationCodes } from "./codes.ts";
import type { AccountsConfig } from "./config.ts";
import { AppError } from "./errors.ts";
import type { AccountsRepo, SessionRow, UserRow } from "./repo.ts";
import { hashPassword, hmacHex, newToken, open, seal, sha256Hex, verifyPassword } from "./secrets.ts";
import { ACCOUNT_POLICY, type AttemptStore, IP_POLICY, MemoryAttemptStore } from "./throttle.ts";
import { newTotpSecret, otpauthUri, verifyTotp } from "./totp.ts";
import type { MessageTransport } from "./transport.ts";

export const SESSION_TTL_MS = 12 * 60 * 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60_000;
const CHALLENGE_TTL_MS = 10 * 60_000;
const MAX_CHALLENGE_ATTEMPTS = 5;

/** A device public key proven at login (see gateway-sign): bound to the session and the user. */
export interface DeviceBinding {
  keyId: string;
  publicKey: string;
  alg: string;
}

export interface RequestMeta {
  ip: string;
  userAgent: string;
  device: DeviceBinding | undefined;
}

export interface IssuedSession {
  userId: string;
  token: string;
  refreshToken: string;
}

export interface AuthContext {
  user: UserRow;
  session: SessionRow;
}

export type LoginResult =
  | { kind: "session"; session: IssuedSession }
  | { kind: "challenge"; challenge: LoginChallenge };

export interface AccountsServiceDeps {
  repo: AccountsRepo;
  config: AccountsConfig;
  transport: MessageTransport;
  now?: () => number;
  accountAttempts?: AttemptStore;
  ipAttempts?: AttemptStore;
}

function throttled(ms: number): AppError {
  return new AppError(AccountCode.LOGIN_THROTTLED, "Too many attempts; try again later", {
    status: 429,
    data: { retryAfterMs: ms },
  });
}

function invalidCredentials(): AppError {
  return new AppError(AccountCode.INVALID_CREDENTIALS, "Wrong account or password");
}

/** Business rules for registration, login, sessions, two-factor and KYC. */
export class AccountsService {
  readonly repo: AccountsRepo;
  readonly codes: VerificationCodes;
  readonly #config: AccountsConfig;
  readonly #now: () => number;
  readonly #accountAttempts: AttemptStore;
  readonly #ipAttempts: AttemptStore;
  readonly #transport: MessageTransport;

  constructor(deps: AccountsServiceDeps) {
    this.repo = deps.repo;
    this.#config = deps.config;
    this.#now = deps.now ?? Date.now;
    this.#transport = deps.transport;
    this.codes = new VerificationCodes(deps.repo, deps.transport, deps.config.codeKey, this.#now);
    this.#accountAttempts = deps.accountAttempts ?? new MemoryAttemptStore(ACCOUNT_POLICY);
    this.#ipAttempts = deps.ipAttempts ?? new MemoryAttemptStore(IP_POLICY);
  }

  async sendCode(body: SendCodeBody, userId?: string): Promise<{ sentTo: string }> {
    let target: CodeTarget;
    if (body.email !== undefined) target = emailTarget(body.email);
    else if (body.mobile !== undefined && body.areaCode !== undefined)
      target = phoneTarget(body.areaCode, body.mobile);
    else throw new AppError(Code.VALIDATION_FAILED, "email, or areaCode and mobile, required");
    if (body.bizType === "login") {
      throw new AppError(Code.VALIDATION_FAILED, "login codes are sent by the login step");
    }
    if (body.bizType === "bind" && userId === undefined)
      throw new AppError(Code.SESSION_INVALID, "Please log in");
    const existing =
      target.channel === "email"
        ? await this.repo.userByEmail(target.address)
        : await this.repo.userByPhoneKey(target.address);
    // An answer that differs for known addresses would let anyone enumerate accounts: the owner gets a notice instead.
    const notice =
      body.bizType === "register" && existing !== undefined
        ? "Someone tried to register a Meridian account with this address. You already have one: log in or reset your password."
        : undefined;
    await this.codes.send(target, body.bizType, notice);
    return { sentTo: maskAddress(target.address) };
  }

  async register(
    kind: "email" | "mobile" | "mobileAndEmail",
    body: Partial<RegisterMobileAndEmailBody> & { pwd: string },
    meta: RequestMeta,
  ): Promise<IssuedSession> {
    const email = kind === "mobile" || body.email === undefined ? undefined : emailTarget(body.email);
    const phone =
      kind === "email" || body.areaCode === undefined || body.mobile === undefined
        ? undefined
        : phoneTarget(body.areaCode, body.mobile);
    if ((kind !== "mobile" && email === undefined) || (kind !== "email" && phone === undefined)) {
      throw new AppError(Code.VALIDATION_FAILED, "missing email or phone");
    }
    if (email !== undefined && !(await this.codes.check(email, "register", body.emailCode))) {
      throw new AppError(AccountCode.VERIFY_CODE_INVALID, "Email verification code is wrong or expired");
    }
    if (phone !== undefined && !(await this.codes.check(phone, "register", body.mobileCode))) {
      throw new AppError(AccountCode.VERIFY_CODE_INVALID, "SMS verification code is wrong or expired");
    }
    const userId = await this.createUser({
      email: email?.address ?? null,
      areaCode: body.areaCode?.replace(/^\+/, "") ?? null,
      mobile: phone === undefined ? null : (body.mobile ?? null),
      phoneKey: phone?.address ?? null,
      password: body.pwd,
      role: "user",
    });
    return this.#issueSession(userId, meta);
  }

  /** Creates a user (registration, the admin CLI); the first factor is the password. */
  async createUser(u: {
    email: string | null;
    areaCode: string | null;
    mobile: string | null;
    phoneKey: string | null;
    password: string;
    role: "user" | "admin";
  }): Promise<string> {
    const passwordHash = await hashPassword(u.password);
    for (let i = 0; i < 5; i++) {
      const id = crypto.randomInt(1_000_000_000, 10_000_000_000).toString();
      const inserted = await this.repo.insertUser({
        id,
        email: u.email,
        areaCode: u.areaCode,
        mobile: u.mobile,
        phoneKey: u.phoneKey,
        passwordHash,
        role: u.role,
        emailEnable: false,
        phoneEnable: false,
        now: this.#now(),
      });
      if (inserted) return id;
      const taken =
        (u.email !== null && (await this.repo.userByEmail(u.email)) !== undefined) ||
        (u.phoneKey !== null && (await this.repo.userByPhoneKey(u.phoneKey)) !== undefined);
      if (taken)
        throw new AppError(AccountCode.ACCOUNT_EXISTS, "An account with this email or phone already exists");
    }
    throw new AppError(Code.INTERNAL, "Could not allocate a user id");
  }

  #loginKey(body: LoginBody): string {
    return body.loginName.includes("@")
      ? emailTarget(body.loginName).address
      : phoneTarget(body.areaCode ?? "", body.loginName).address;
  }

  async #checkThrottle(accountKey: string, ip: string): Promise<void> {
    const now = this.#now();
    const wait = Math.max(
      await this.#accountAttempts.blockedFor(accountKey, now),
      await this.#ipAttempts.blockedFor(ip, now),
    );
    if (wait > 0) throw throttled(wait);
  }

  async #recordFailure(accountKey: string, ip: string): Promise<void> {
    const now = this.#now();
    const blocked = Math.max(
      await this.#accountAttempts.fail(accountKey, now),
      await this.#ipAttempts.fail(ip, now),
    );
    if (blocked > 0) throw throttled(blocked);
  }

  async login(body: LoginBody, meta: RequestMeta): Promise<LoginResult> {
    const accountKey = this.#loginKey(body);
    await this.#checkThrottle(accountKey, meta.ip);
    const user = accountKey.includes("@")
      ? await this.repo.userByEmail(accountKey)
      : await this.repo.userByPhoneKey(accountKey);
    const ok = await verifyPassword(user?.password_hash, body.pwd);
    if (!ok || user === undefined) {
      await this.#recordFailure(accountKey, meta.ip);
      throw invalidCredentials();
    }
    if (user.frozen === 1) throw new AppError(Code.SESSION_FROZEN, "This account is frozen");
    const methods: VerifyMethod[] = [];
    if (user.google_enable === 1) methods.push("google");
    else {
      if (user.email_enable === 1 && user.email !== null) methods.push("email");
      if (user.phone_enable === 1 && user.phone_key !== null) methods.push("mobile");
    }
    if (methods.length === 0) {
      await this.#accountAttempts.reset(accountKey);
      return { kind: "session", session: await this.#issueSession(user.id, meta) };
    }
    const verifyToken = newToken();
    const now = this.#now();
    await this.repo.insertChallenge({
      id_hash: hmacHex(this.#config.codeKey, verifyToken),
      user_id: user.id,
      methods: methods.join(","),
      device_public_key: meta.device === undefined ? null : JSON.stringify(meta.device),
      device_alg: meta.device?.alg ?? null,
      attempts: 0,
      expires_at: now + CHALLENGE_TTL_MS,
      created_at: now,
    });
    let sentTo: string | undefined;
    const first = methods[0];
    if (first === "email" && user.email !== null) {
      await this.codes.send(emailTarget(user.email), "login");
      sentTo = maskAddress(user.email);
    } else if (first === "mobile" && user.phone_key !== null) {
      await this.codes.send({ channel: "sms", address: user.phone_key }, "login");
      sentTo = maskAddress(user.phone_key);
    }
    return {
      kind: "challenge",
      challenge: { verifyToken, methods, ...(sentTo === undefined ? {} : { sentTo }) },
    };
  }

  async verifyLogin(body: VerifyLoginBody, meta: Omit<RequestMeta, "device">): Promise<IssuedSession> {
    const idHash = hmacHex(this.#config.codeKey, body.verifyToken);
    const challenge = await this.repo.challenge(idHash);
    const now = this.#now();
    const invalid = () =>
      new AppError(AccountCode.VERIFY_CODE_INVALID, "Verification code is wrong or expired");
    if (challenge === undefined || challenge.expires_at < now || challenge.attempts >= MAX_CHALLENGE_ATTEMPTS)
      throw invalid();
    await this.#checkThrottle(`user:${challenge.user_id}`, meta.ip);
    const user = await this.repo.userById(challenge.user_id);
    if (user === undefined) throw invalid();
    const methods = challenge.methods.split(",");
    let passed = false;
    if (methods.includes("google") && body.googleCode !== undefined && user.google_secret_enc !== null) {
      const secret = open(this.#config.totpKey, user.google_secret_enc, `totp:${user.id}`);
      const step = verifyTotp(secret, body.googleCode, now);
      passed = step !== undefined && (await this.repo.useGoogleStep(user.id, step));
    } else if (methods.includes("email") && user.email !== null && body.emailCode !== undefined) {
      passed = await this.codes.check(emailTarget(user.email), "login", body.emailCode);
    } else if (methods.includes("mobile") && user.phone_key !== null && body.mobileCode !== undefined) {
      passed = await this.codes.check({ channel: "sms", address: user.phone_key }, "login", body.mobileCode);
    }
    if (!passed) {
      await this.repo.bumpChallenge(idHash);
      await this.#recordFailure(`user:${user.id}`, meta.ip);
      throw methods.includes("google")
        ? new AppError(AccountCode.GOOGLE_CODE_INVALID, "Authenticator code is wrong")
        : invalid();
    }
    if (!(await this.repo.consumeChallenge(idHash))) throw invalid();
    await this.#accountAttempts.reset(`user:${user.id}`);
    const device =
      challenge.device_public_key === null
        ? undefined
        : (JSON.parse(challenge.device_public_key) as DeviceBinding);
    return this.#issueSession(user.id, { ...meta, device });
  }

  async #issueSession(userId: string, meta: RequestMeta): Promise<IssuedSession> {
    const token = newToken();
    const refreshToken = newToken();
    const now = this.#now();
    await this.repo.insertSession({
      tokenHash: sha256Hex(token),
      refreshHash: sha256Hex(refreshToken),
      userId,
      now,
      expiresAt: now + SESSION_TTL_MS,
      refreshExpiresAt: now + REFRESH_TTL_MS,
      deviceKeyId: meta.device?.keyId ?? null,
      devicePublicKey: meta.device?.publicKey ?? null,
      deviceAlg: meta.device?.alg ?? null,
      ip: meta.ip,
      userAgent: meta.userAgent.slice(0, 512),
    });
    if (meta.device !== undefined) {
      await this.repo.upsertDevice({ userHash: sha256Hex(userId), userId, now, ...meta.device });
    }
    return { userId, token, refreshToken };
  }

  /** Resolves a session cookie; the error code tells the client whether to force a logout. */
  async authenticate(token: string | undefined): Promise<AuthContext> {
    if (token === undefined || token.length < 16) throw new AppError(Code.SESSION_INVALID, "Please log in");
    const now = this.#now();
    const found = await this.repo.sessionWithUser(sha256Hex(token), now);
    const session = found?.session;
    if (session === undefined || session.expires_at < now) {
      throw new AppError(Code.SESSION_INVALID, "Your session has expired; please log in again");
    }
    if (session.revoked_at !== null) {
      if (session.revoke_reason === "kicked")
        throw new AppError(Code.SESSION_KICKED, "You were logged out from another place");
      throw new AppError(Code.SESSION_INVALID, "Your session has ended; please log in again");
    }
    const user = found?.user;
    if (user === undefined) throw new AppError(Code.SESSION_INVALID, "Please log in");
    if (user.frozen === 1) throw new AppError(Code.SESSION_FROZEN, "This account is frozen");
    return { user, session };
  }

  /** Rotates both tokens; a refresh token used twice revokes every session of the user (stolen-token signal). */
  async refresh(refreshToken: string | undefined, meta: Omit<RequestMeta, "device">): Promise<IssuedSession> {
    if (refreshToken === undefined) throw new AppError(Code.SESSION_INVALID, "Please log in");
    const session = await this.repo.sessionByRefresh(sha256Hex(refreshToken));
    const now = this.#now();
    if (session === undefined || session.refresh_expires_at < now)
      throw new AppError(Code.SESSION_INVALID, "Please log in");
    if (session.revoked_at !== null) {
      if (session.revoke_reason === "rotated")
        await this.repo.revokeUserSessions(session.user_id, "refresh-reuse", now);
      throw new AppError(Code.SESSION_INVALID, "Please log in");
    }
    await this.repo.revokeSession(session.token_hash, "rotated", now);
    const device =
      session.device_key_id !== null && session.device_public_key !== null && session.device_alg !== null
        ? { keyId: session.device_key_id, publicKey: session.device_public_key, alg: session.device_alg }
        : undefined;
    return this.#issueSession(session.user_id, { ...meta, device });
  }

  async logout(token: string | undefined): Promise<void> {
    if (token === undefined) return;
    await this.repo.revokeSession(sha256Hex(token), "logout", this.#now());
  }

  /**
   * Device check (no token cookie yet): the client signs with the key it bound for this
   * hashed user id before. True when one of that user's device keys made the signature.
   */
  async checkDevice(d: {
    hashUserId: string;
    alg: string;
    signature: string;
    path: string;
    tm: string;
  }): Promise<boolean> {
    if (
      !/^[0-9a-f]{64}$/.test(d.hashUserId) ||
      !/^\d{13}$/.test(d.tm) ||
      Math.abs(this.#now() - Number(d.tm)) > SIGN_WINDOW_MS
    ) {
      return false;
    }
    const text = deviceCheckPayload(d.path, d.hashUserId, d.tm);
    const keys = await this.repo.devicesByUserHash(d.hashUserId);
    return keys.some((k) => k.alg === d.alg && verifyDeviceSignature(k.alg, k.public_key, text, d.signature));
  }

  /** Session token -> the device key bound to it (undefined: no valid session; null: none bound). */
  async sessionKey(token: string): Promise<DeviceBinding | null | undefined> {
    const session = await this.repo.sessionByToken(sha256Hex(token));
    if (session === undefined || session.revoked_at !== null || session.expires_at < this.#now())
      return undefined;
    if (session.device_key_id === null || session.device_public_key === null || session.device_alg === null)
      return null;
    return { keyId: session.device_key_id, publicKey: session.device_public_key, alg: session.device_alg };
  }

  async sessionUserId(token: string): Promise<string | undefined> {
    const session = await this.repo.sessionByToken(sha256Hex(token));
    return session === undefined || session.revoked_at !== null || session.expires_at < this.#now()
      ? undefined
      : session.user_id;
  }

  /** Ends every session of a user: `kicked` answers 20906 on their next call. */
  kickUser(userId: string): Promise<number> {
    return this.repo.revokeUserSessions(userId, "kicked", this.#now());
  }

  /**
   * Checks a sensitive action's second factor (other modules: API keys). Undefined when the
   * user has no enabled authenticator (nothing to check); otherwise whether `code` is a
   * fresh, unused TOTP code (a code is accepted once, as at login).
   */
  async checkSecondFactor(userId: string, code: string | undefined): Promise<boolean | undefined> {
    const user = await this.repo.userById(userId);
    if (user === undefined || user.google_enable !== 1 || user.google_secret_enc === null) return undefined;
    if (code === undefined) return false;
    const step = verifyTotp(
      open(this.#config.totpKey, user.google_secret_enc, `totp:${user.id}`),
      code,
      this.#now(),
    );
    return step !== undefined && (await this.repo.useGoogleStep(user.id, step));
  }

  /** E-mails the user a security notice when an address is bound (no-op otherwise). */
  async notify(userId: string, subject: string, body: string): Promise<void> {
    const user = await this.repo.userById(userId);
    if (user?.email === null || user?.email === undefined) return;
    await this.#transport.send({ channel: "email", recipient: user.email, subject, body });
  }

  async googleSetup(user: UserRow): Promise<{ secret: string; otpauthUri: string }> {
    if (user.google_secret_enc !== null)
      throw new AppError(AccountCode.GOOGLE_ALREADY_BOUND, "An authenticator is already bound");
    const secret = newTotpSecret();
    await this.repo.setGooglePending(
      user.id,
      seal(this.#config.totpKey, secret, `totp:${user.id}`),
      this.#now(),
    );
    return { secret, otpauthUri: otpauthUri(secret, user.email ?? user.phone_key ?? user.id) };
  }

  async googleBind(userId: string, code: string): Promise<void> {
    const user = await this.repo.userById(userId);
    if (user === undefined || user.google_pending_enc === null)
      throw new AppError(AccountCode.GOOGLE_CODE_INVALID, "Start the setup first");
    const sealed = user.google_pending_enc;
    const secret = open(this.#config.totpKey, sealed, `totp:${user.id}`);
    const step = verifyTotp(secret, code, this.#now());
    if (step === undefined)
      throw new AppError(AccountCode.GOOGLE_CODE_INVALID, "Authenticator code is wrong");
    await this.repo.bindGoogle(user.id, sealed, step, this.#now());
  }

  async googleSwitch(userId: string, code: string, enable: boolean): Promise<void> {
    const user = await this.repo.userById(userId);
    if (user === undefined || user.google_secret_enc === null)
      throw new AppError(AccountCode.GOOGLE_CODE_INVALID, "No authenticator bound");
    const step = verifyTotp(
      open(this.#config.totpKey, user.google_secret_enc, `totp:${user.id}`),
      code,
      this.#now(),
    );
    if (step === undefined || !(await this.repo.useGoogleStep(user.id, step))) {
      throw new AppError(AccountCode.GOOGLE_CODE_INVALID, "Authenticator code is wrong");
    }
    await this.repo.setGoogleEnable(user.id, enable, this.#now());
  }

  /**
   * KYC in this simulation product: level 1 (name, country, document number) and level 2
   * (address) are approved at once; only a hash and the last four characters of the
   * document number are kept.
   */
  async submitKyc(user: UserRow, body: KycSubmitBody): Promise<{ kycLevel: number }> {
    const now = this.#now();
    if (body.step === 1) {
      const doc = body.documentNumber.toUpperCase();
      await this.repo.kycLevel1(
        user.id,
        {
          submissionId: crypto.randomUUID(),
          familyName: body.familyName,
          givenName: body.givenName,
          country: body.country,
          documentHash: hmacHex(this.#config.codeKey, `kyc:${body.country}:${doc}`),
          documentLast4: doc.slice(-4),
        },
        now,
      );
      return { kycLevel: Math.max(1, user.kyc_level) };
    }
    if (user.kyc_level < 1)
      throw new AppError(AccountCode.KYC_STEP_INVALID, "Complete identity verification level 1 first");
    await this.repo.kycLevel2(
      user.id,
      { submissionId: crypto.randomUUID(), addressLine: body.addressLine, city: body.city },
      now,
    );
    return { kycLevel: 2 };
  }
}

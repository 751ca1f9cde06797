import crypto from "node:crypto";
import {
  AccountCode,
  Code,
  deviceCheckPayload,
  type KycSubmitBody,
  type LoginBody,
  type LoginChallenge,
  type LoginProof,
  RECOVERY_CODE_COUNT,
  type RegisterMobileAndEmailBody,
  SecurityCode,
  type SendCodeBody,
  SIGN_WINDOW_MS,
  STEP_UP_MS,
  type ThirdBindBody,
  ThirdPartyCode,
  type ThirdTicket,
  type VerifyLoginV2Body,
  type VerifyMethod,
} from "@meridian/contracts";
import {
  AttemptLimiter,
  type AttemptStore,
  DbAttemptStore,
  throttledError,
} from "../../platform/attempts/index.ts";
import { BusinessError } from "../../platform/errors.ts";
import { verifyDeviceSignature } from "../gateway-sign/index.ts";
import {
  type CodeTarget,
  emailTarget,
  maskAddress,
  phoneTarget,
  type Reader,
  VerificationCodes,
} from "./codes.ts";
import type { AccountsConfig } from "./config.ts";
import { ipCounter, passwordCounter, secondFactorCounter, thirdPartyCounter } from "./limits.ts";
import { Passkeys } from "./passkeys.ts";
import { QrLogins, type QrPoll } from "./qr-login.ts";
import { RecoveryCodes, recoveryCodeInvalid } from "./recovery-codes.ts";
import type { AccountsRepo, SessionRow, UserRow } from "./repo.ts";
import { hashPassword, hmacHex, newToken, open, seal, sha256Hex, verifyPassword } from "./secrets.ts";
import { SecurityRepo } from "./security-repo.ts";
import { AccountSecurity, type Actor, deviceName, readerOf } from "./security-service.ts";
import { THIRD_FAILURE_CODES, type ThirdIdentity, ThirdPartySignIn, thirdError } from "./third-party.ts";
import { newTotpSecret, otpauthUri, verifyTotp } from "./totp.ts";
import type { MessageTransport } from "./transport.ts";

export const SESSION_TTL_MS = 12 * 60 * 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60_000;
const CHALLENGE_TTL_MS = 10 * 60_000;
/** Second-factor tries one login challenge allows (counted on its row before the check). */
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
  /** The site locale the request came from (messages to a new account use it); default en. */
  locale?: string;
  /** The browser's device cookie, hashed: devices page and new-device notices. */
  deviceId?: string | null;
}

/** A session's last-seen time is written at most this often. */
const TOUCH_EVERY_MS = 5 * 60_000;

export interface IssuedSession {
  userId: string;
  token: string;
  refreshToken: string;
}

/** What a session token's read finds (`findSession`): no row, or the session and its user (none when revoked or expired). */
export type SessionLookup = { session: SessionRow; user: UserRow | undefined } | undefined;

export interface AuthContext {
  user: UserRow;
  session: SessionRow;
}

export type LoginResult =
  | { kind: "session"; session: IssuedSession }
  | { kind: "challenge"; challenge: LoginChallenge };

/** A third-party sign-in: as a login, or a ticket when no account has that identity yet. */
export type ThirdSignInResult = LoginResult | { kind: "ticket"; ticket: ThirdTicket };

export interface AccountsServiceDeps {
  repo: AccountsRepo;
  config: AccountsConfig;
  transport: MessageTransport;
  now?: () => number;
  /** Where attempts are counted: Redis when several processes share one; the database otherwise. */
  attempts?: AttemptStore;
}

/** The stored hash of an account without a password: argon2 reads it as no hash, so nothing verifies. */
export const NO_PASSWORD = "";

function lastWayIn(): BusinessError {
  return new BusinessError(ThirdPartyCode.LAST_WAY_IN, "Set a password or add a passkey first", {
    status: 409,
  });
}

function identityBound(): BusinessError {
  return new BusinessError(ThirdPartyCode.IDENTITY_BOUND, "That sign-in is bound to an account already", {
    status: 409,
  });
}

function invalidCredentials(): BusinessError {
  return new BusinessError(AccountCode.INVALID_CREDENTIALS, "Wrong account or password");
}

/** Business rules for registration, login, sessions, two-factor and KYC. */
export class AccountsService {
  readonly repo: AccountsRepo;
  readonly codes: VerificationCodes;
  readonly security: AccountSecurity;
  readonly securityRepo: SecurityRepo;
  /** The authenticator's single-use recovery codes. */
  readonly recovery: RecoveryCodes;
  /** WebAuthn credentials: sign-in alone or the second login step. */
  readonly passkeys: Passkeys;
  /** QR login: a token shown on the login page, confirmed by a session elsewhere. */
  readonly qr: QrLogins;
  /** Sign-in with an OpenID provider or Telegram: verification and the bound identities. */
  readonly third: ThirdPartySignIn;
  readonly #config: AccountsConfig;
  /** Session token hash -> when its last-seen time was last written (bounded, see #touch). */
  readonly #touched = new Map<string, number>();
  readonly #now: () => number;
  readonly #transport: MessageTransport;
  /**
   * Counts every secret check before it runs (see ./limits.ts for the counters): use it
   * for any new check of a password, code or authenticator.
   */
  readonly limiter: AttemptLimiter;

  constructor(deps: AccountsServiceDeps) {
    this.repo = deps.repo;
    this.#config = deps.config;
    this.#now = deps.now ?? Date.now;
    this.#transport = deps.transport;
    this.limiter = new AttemptLimiter(deps.attempts ?? new DbAttemptStore(deps.repo.db), this.#now);
    this.codes = new VerificationCodes(
      deps.repo,
      deps.transport,
      deps.config.codeKey,
      this.#now,
      this.limiter,
    );
    this.securityRepo = new SecurityRepo(deps.repo.db);
    this.recovery = new RecoveryCodes(deps.repo.db, deps.config.codeKey);
    this.passkeys = new Passkeys(deps.repo.db, deps.config.webauthn, deps.config.codeKey, this.#now);
    this.qr = new QrLogins({
      db: deps.repo.db,
      codeKey: deps.config.codeKey,
      limiter: this.limiter,
      now: this.#now,
      history: (userId, who) => this.#history(userId, { ...who, device: undefined }, "qr"),
    });
    this.third = new ThirdPartySignIn({
      db: deps.repo.db,
      config: deps.config.third,
      codeKey: deps.config.codeKey,
      sealKey: deps.config.totpKey,
      origins: deps.config.webauthn.origins,
      now: this.#now,
    });
    this.security = new AccountSecurity({
      recovery: this.recovery,
      passkeys: this.passkeys,
      repo: deps.repo,
      securityRepo: this.securityRepo,
      codes: this.codes,
      transport: deps.transport,
      config: deps.config,
      now: this.#now,
      limiter: this.limiter,
    });
  }

  async sendCode(
    body: SendCodeBody,
    ip: string,
    locale: string,
    userId?: string,
  ): Promise<{ sentTo: string }> {
    let target: CodeTarget;
    if (body.email !== undefined) target = emailTarget(body.email);
    else if (body.mobile !== undefined && body.areaCode !== undefined)
      target = phoneTarget(body.areaCode, body.mobile);
    else throw new BusinessError(Code.VALIDATION_FAILED, "email, or areaCode and mobile, required");
    if (body.bizType === "login") {
      throw new BusinessError(Code.VALIDATION_FAILED, "login codes are sent by the login step");
    }
    if (body.bizType === "bind" && userId === undefined)
      throw new BusinessError(Code.SESSION_INVALID, "Please log in");
    const existing =
      target.channel === "email"
        ? await this.repo.userByEmail(target.address)
        : await this.repo.userByPhoneKey(target.address);
    // An answer that differs for known addresses would let anyone enumerate accounts: the owner gets a notice instead.
    const reader: Reader = existing === undefined ? { locale, antiPhishingCode: "" } : readerOf(existing);
    await this.codes.send(target, body.bizType, reader, {
      ip,
      existing: body.bizType === "register" && existing !== undefined,
    });
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
      throw new BusinessError(Code.VALIDATION_FAILED, "missing email or phone");
    }
    const ip = [ipCounter(meta.ip)];
    if (
      email !== undefined &&
      !(await this.limiter.attempt(ip, () => this.codes.check(email, "register", body.emailCode)))
    ) {
      throw new BusinessError(AccountCode.VERIFY_CODE_INVALID, "Email verification code is wrong or expired");
    }
    if (
      phone !== undefined &&
      !(await this.limiter.attempt(ip, () => this.codes.check(phone, "register", body.mobileCode)))
    ) {
      throw new BusinessError(AccountCode.VERIFY_CODE_INVALID, "SMS verification code is wrong or expired");
    }
    const userId = await this.createUser({
      email: email?.address ?? null,
      areaCode: body.areaCode?.replace(/^\+/, "") ?? null,
      mobile: phone === undefined ? null : (body.mobile ?? null),
      phoneKey: phone?.address ?? null,
      password: body.pwd,
      role: "user",
      locale: meta.locale ?? "en",
    });
    return this.#issueSession(userId, meta);
  }

  /** Creates a user (registration, the admin CLI); the first factor is the password. */
  async createUser(u: {
    email: string | null;
    areaCode: string | null;
    mobile: string | null;
    phoneKey: string | null;
    /** Null: no password (an account made by a third-party sign-in); no password verifies. */
    password: string | null;
    role: "user" | "admin";
    locale?: string;
  }): Promise<string> {
    const passwordHash = u.password === null ? NO_PASSWORD : await hashPassword(u.password);
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
        locale: u.locale ?? "en",
        now: this.#now(),
      });
      if (inserted) return id;
      const taken =
        (u.email !== null && (await this.repo.userByEmail(u.email)) !== undefined) ||
        (u.phoneKey !== null && (await this.repo.userByPhoneKey(u.phoneKey)) !== undefined);
      if (taken)
        throw new BusinessError(
          AccountCode.ACCOUNT_EXISTS,
          "An account with this email or phone already exists",
        );
    }
    throw new BusinessError(Code.INTERNAL, "Could not allocate a user id");
  }

  #loginKey(body: Pick<LoginBody, "loginName" | "areaCode">): string {
    return body.loginName.includes("@")
      ? emailTarget(body.loginName).address
      : phoneTarget(body.areaCode ?? "", body.loginName).address;
  }

  async login(body: LoginBody, meta: RequestMeta): Promise<LoginResult> {
    return this.#afterFirstFactor(await this.#passwordStep(body, meta), meta, "password");
  }

  /** The password step of a login (or of linking an identity): the account, or a counted refusal. */
  async #passwordStep(body: Pick<LoginBody, "loginName" | "areaCode" | "pwd">, meta: RequestMeta) {
    const loginName = this.#loginKey(body);
    const user = loginName.includes("@")
      ? await this.repo.userByEmail(loginName)
      : await this.repo.userByPhoneKey(loginName);
    // Unknown names get a counter of their own, so they throttle exactly like real accounts.
    const account = passwordCounter(user === undefined ? { loginName } : { userId: user.id });
    let ok: boolean;
    try {
      ok = await this.limiter.attempt([ipCounter(meta.ip), account], () =>
        verifyPassword(user?.password_hash, body.pwd),
      );
    } catch (err) {
      if (user !== undefined && err instanceof BusinessError && err.code === AccountCode.LOGIN_THROTTLED)
        await this.#history(user.id, meta, "throttled");
      throw err;
    }
    if (!ok || user === undefined) {
      if (user !== undefined) await this.#history(user.id, meta, "password");
      throw invalidCredentials();
    }
    return user;
  }

  /**
   * A first factor passed (a password, or a third-party identity): a session, or the
   * second step when the account has a factor bound. `bind` is an identity to bind once
   * the login completes (linking one to this account).
   */
  async #afterFirstFactor(
    user: UserRow,
    meta: RequestMeta,
    firstFactor: "password" | "third-party",
    bind?: ThirdIdentity,
  ): Promise<LoginResult> {
    if (user.frozen === 1) {
      await this.#history(user.id, meta, "frozen");
      throw new BusinessError(Code.SESSION_FROZEN, "This account is frozen");
    }
    const methods: VerifyMethod[] = [];
    if (user.google_enable === 1) {
      methods.push("google");
      if ((await this.recovery.remaining(user.id)) > 0) methods.push("recovery");
    }
    if ((await this.passkeys.count(user.id)) > 0) methods.push("passkey");
    if (methods.length === 0) {
      if (user.email_enable === 1 && user.email !== null) methods.push("email");
      if (user.phone_enable === 1 && user.phone_key !== null) methods.push("mobile");
    }
    let newDevice = false;
    // A third-party sign-in (and a link, which is one plus the password) was proved by
    // the provider: only a password alone from a new browser needs the mailed code.
    if (
      methods.length === 0 &&
      firstFactor === "password" &&
      !(await this.#knownDevice(user.id, meta.deviceId))
    ) {
      // No second factor to ask, from a browser this account never logged in from: a
      // password alone does not open it there, a code to the owner's e-mail (or phone) must.
      if (user.email !== null) methods.push("email");
      else if (user.phone_key !== null) methods.push("mobile");
      newDevice = methods.length > 0;
    }
    if (methods.length === 0) {
      if (bind !== undefined) await this.#bindIdentity(user.id, bind);
      return { kind: "session", session: await this.#loggedIn(user, meta, null, false) };
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
      bind_identity: bind === undefined ? null : JSON.stringify(bind),
    });
    let sentTo: string | undefined;
    const first = methods[0];
    if (first === "email" && user.email !== null) {
      await this.codes.send(emailTarget(user.email), "login", readerOf(user));
      sentTo = maskAddress(user.email);
    } else if (first === "mobile" && user.phone_key !== null) {
      await this.codes.send({ channel: "sms", address: user.phone_key }, "login", readerOf(user));
      sentTo = maskAddress(user.phone_key);
    }
    const fidoOptions = methods.includes("passkey")
      ? await this.passkeys.secondStepOptions(user.id)
      : undefined;
    return {
      kind: "challenge",
      challenge: {
        verifyToken,
        methods,
        ...(sentTo === undefined ? {} : { sentTo }),
        ...(fidoOptions === undefined ? {} : { fidoOptions }),
        ...(newDevice ? { newDevice } : {}),
      },
    };
  }

  /** Whether this account has logged in from the browser with this device id before. */
  async #knownDevice(userId: string, deviceId: string | null | undefined): Promise<boolean> {
    return (
      deviceId !== undefined && deviceId !== null && (await this.securityRepo.deviceExists(userId, deviceId))
    );
  }

  /**
   * The login's second step (`verify-login`, `verify-login-v2`): one factor the challenge
   * lists, counted on the challenge, the user's second-factor counter and the address.
   */
  async verifyLogin(body: VerifyLoginV2Body, meta: RequestMeta): Promise<IssuedSession> {
    const idHash = hmacHex(this.#config.codeKey, body.verifyToken);
    const challenge = await this.repo.challenge(idHash);
    const now = this.#now();
    const invalid = () =>
      new BusinessError(AccountCode.VERIFY_CODE_INVALID, "Verification code is wrong or expired", {
        status: 400,
      });
    if (challenge === undefined || challenge.expires_at < now)
      throw new BusinessError(
        AccountCode.VERIFY_CODE_INVALID,
        "This login step has expired or was already used: log in again",
        { status: 400 },
      );
    const user = await this.repo.userById(challenge.user_id);
    if (user === undefined) throw invalid();
    const methods = challenge.methods.split(",");
    const codes = [body.googleCode, body.emailCode, body.mobileCode, body.recoveryCode];
    const fido = codes.every((c) => c === undefined) ? body.fidoVerifyCode : undefined;
    // Which factor the answer uses, in the order the check below tries them.
    const proof: LoginProof =
      fido !== undefined
        ? "passkey"
        : methods.includes("google") && body.recoveryCode !== undefined
          ? "recovery"
          : methods.includes("google") && body.googleCode !== undefined
            ? "google"
            : methods.includes("email") && body.emailCode !== undefined
              ? "email"
              : "mobile";
    if (fido !== undefined && !methods.includes("passkey")) {
      // The account has no passkey to answer with: a failed try all the same, counted like a
      // wrong code (so the path is no way around the limits) and written to the history.
      await this.limiter.attempt([ipCounter(meta.ip), secondFactorCounter(user.id)], async () => false);
      await this.#history(user.id, meta, "second-factor");
      throw new BusinessError(AccountCode.LOGIN_STEP_NOT_OFFERED, "This account has no passkey", {
        status: 404,
      });
    }
    const passed = await this.limiter
      .attempt([ipCounter(meta.ip), secondFactorCounter(user.id)], async () => {
        // The challenge's own budget is counted on its row first, like the counters above.
        if (!(await this.repo.reserveChallengeAttempt(idHash, MAX_CHALLENGE_ATTEMPTS, now))) {
          throw throttledError(Math.max(0, challenge.expires_at - now));
        }
        if (fido !== undefined) {
          await this.passkeys.authenticate(fido, "second", user.id);
          return true;
        }
        if (methods.includes("google") && body.recoveryCode !== undefined) {
          return this.recovery.use(user.id, body.recoveryCode, now);
        }
        if (methods.includes("google") && body.googleCode !== undefined && user.google_secret_enc !== null) {
          return this.#useTotp(user.id, user.google_secret_enc, body.googleCode);
        }
        if (methods.includes("email") && user.email !== null && body.emailCode !== undefined) {
          return this.codes.check(emailTarget(user.email), "login", body.emailCode);
        }
        if (methods.includes("mobile") && user.phone_key !== null && body.mobileCode !== undefined) {
          return this.codes.check({ channel: "sms", address: user.phone_key }, "login", body.mobileCode);
        }
        return false;
      })
      .catch(async (err: unknown) => {
        if (err instanceof BusinessError && err.code === AccountCode.PASSKEY_INVALID)
          await this.#history(user.id, meta, "second-factor");
        throw err;
      });
    if (!passed) {
      await this.#history(user.id, meta, "second-factor");
      if (methods.includes("google") && body.recoveryCode !== undefined) throw recoveryCodeInvalid();
      throw methods.includes("google")
        ? new BusinessError(AccountCode.GOOGLE_CODE_INVALID, "Authenticator code is wrong")
        : invalid();
    }
    if (!(await this.repo.consumeChallenge(idHash))) throw invalid();
    if (challenge.bind_identity !== null)
      await this.#bindIdentity(user.id, JSON.parse(challenge.bind_identity) as ThirdIdentity);
    // The client binds the key its last login-type request proved (this one, when it sent
    // one): the password step's key would leave every signed call answering 00023.
    const device =
      meta.device ??
      (challenge.device_public_key === null
        ? undefined
        : (JSON.parse(challenge.device_public_key) as DeviceBinding));
    // A mailed code proves the inbox, not a second factor: no step-up for sensitive changes.
    return this.#loggedIn(user, { ...meta, device }, proof, proof !== "email" && proof !== "mobile");
  }

  /**
   * Signing in with a passkey alone (a discoverable credential): the passkey names the
   * account. Counted per address, and against the owner's second-factor budget once the
   * passkey is known; a failure is written to the owner's history.
   */
  async loginWithPasskey(fidoVerifyCode: string, meta: RequestMeta): Promise<IssuedSession> {
    const owner = await this.passkeys.ownerOf(fidoVerifyCode);
    const counters = [ipCounter(meta.ip), ...(owner === undefined ? [] : [secondFactorCounter(owner)])];
    let userId: string | undefined;
    await this.limiter
      .attempt(counters, async () => {
        userId = await this.passkeys.authenticate(fidoVerifyCode, "login", null);
        return true;
      })
      .catch(async (err: unknown) => {
        if (owner !== undefined && err instanceof BusinessError && err.code === AccountCode.PASSKEY_INVALID)
          await this.#history(owner, meta, "second-factor");
        throw err;
      });
    const user = userId === undefined ? undefined : await this.repo.userById(userId);
    if (user === undefined)
      throw new BusinessError(AccountCode.PASSKEY_INVALID, "Passkey not accepted", { status: 400 });
    if (user.frozen === 1) {
      await this.#history(user.id, meta, "frozen");
      throw new BusinessError(Code.SESSION_FROZEN, "This account is frozen");
    }
    return this.#loggedIn(user, meta, "passkey", true);
  }

  /**
   * A third-party sign-in: `verify` checks the provider's answer (counted before it runs
   * against the address and, when `claimed` names a bound identity, its account). A bound
   * identity logs its account in (the second step when it has factors); a new one gets a
   * ticket to create or link an account. A refusal is a `third-party` line in the history
   * of the account it names, else of the accounts this browser signed in to before.
   */
  async thirdSignIn(
    verify: () => Promise<ThirdIdentity>,
    meta: RequestMeta & { deviceId: string },
    claimed?: { provider: string; subject: string },
  ): Promise<ThirdSignInResult> {
    const named =
      claimed === undefined
        ? undefined
        : (await this.third.repo.identity(claimed.provider, claimed.subject))?.user_id;
    let identity: ThirdIdentity | undefined;
    try {
      await this.limiter.attempt(
        [ipCounter(meta.ip), ...(named === undefined ? [] : [thirdPartyCounter(named)])],
        async () => {
          identity = await verify();
          return true;
        },
      );
    } catch (err) {
      const throttled = err instanceof BusinessError && err.code === AccountCode.LOGIN_THROTTLED;
      if (err instanceof BusinessError && (throttled || THIRD_FAILURE_CODES.has(err.code))) {
        const users = named !== undefined ? [named] : await this.third.repo.usersOfDevice(meta.deviceId);
        for (const userId of users)
          await this.#history(userId, meta, throttled ? "throttled" : "third-party");
      }
      throw err;
    }
    if (identity === undefined) throw thirdError("response");
    const bound = await this.third.repo.identity(identity.provider, identity.subject);
    if (bound === undefined)
      return { kind: "ticket", ticket: await this.third.issueTicket(identity, meta.deviceId) };
    const user = await this.repo.userById(bound.user_id);
    if (user === undefined) throw thirdError("response");
    await this.third.repo.used(identity.provider, identity.subject, identity.display, this.#now());
    return this.#afterFirstFactor(user, meta, "third-party");
  }

  /** A ticket's identity, the ticket looked up (or spent) under the address's budget. */
  #ticketIdentity(token: string, meta: RequestMeta & { deviceId: string }, spend: boolean) {
    let identity: ThirdIdentity | undefined;
    return this.limiter
      .attempt([ipCounter(meta.ip)], async () => {
        identity = await this.third.ticketIdentity(token, meta.deviceId, spend);
        return true;
      })
      .then(() => {
        if (identity === undefined) throw thirdError("ticket");
        return identity;
      });
  }

  /** What a ticket is about (the page that offers to create or link an account). */
  async thirdCheck(token: string, meta: RequestMeta & { deviceId: string }) {
    await this.#ticketIdentity(token, meta, false);
    return this.third.checkTicket(token, meta.deviceId);
  }

  /**
   * A new account for a ticket's identity: no password (nothing verifies against none), the
   * provider's e-mail when it says it verified it and no account uses it, bound and logged in.
   */
  async thirdRegister(token: string, meta: RequestMeta & { deviceId: string }): Promise<IssuedSession> {
    const identity = await this.#ticketIdentity(token, meta, true);
    if ((await this.third.repo.identity(identity.provider, identity.subject)) !== undefined)
      throw identityBound();
    const email =
      identity.email !== null && (await this.repo.userByEmail(identity.email)) === undefined
        ? identity.email
        : null;
    const userId = await this.createUser({
      email,
      areaCode: null,
      mobile: null,
      phoneKey: null,
      password: null,
      role: "user",
      locale: meta.locale ?? "en",
    });
    await this.#bindIdentity(userId, identity);
    return this.#issueSession(userId, meta);
  }

  /**
   * Links a ticket's identity to an existing account: that account's password (the login's
   * counters and history), then its second step when it has factors; bound once it passes.
   */
  async thirdBind(body: ThirdBindBody, meta: RequestMeta & { deviceId: string }): Promise<LoginResult> {
    await this.#ticketIdentity(body.token, meta, false);
    const user = await this.#passwordStep(body, meta);
    const identity = await this.#ticketIdentity(body.token, meta, true);
    if ((await this.third.repo.identity(identity.provider, identity.subject)) !== undefined)
      throw identityBound();
    return this.#afterFirstFactor(user, meta, "third-party", identity);
  }

  async #bindIdentity(userId: string, identity: ThirdIdentity): Promise<void> {
    if (!(await this.third.repo.bind(userId, identity, this.#now()))) throw identityBound();
  }

  /**
   * Unbinds the account's identity at `provider` while another way in remains: a password,
   * a passkey or another identity. A factor bound means a recent step-up, as for any factor.
   */
  async thirdUnbind(actor: Actor, provider: string): Promise<void> {
    const { user } = actor;
    await this.security.assertStepUp(actor);
    const identities = await this.third.repo.list(user.id);
    if (!identities.some((i) => i.provider === provider))
      throw new BusinessError(SecurityCode.NOT_BOUND, "That sign-in is not bound");
    const others = identities.length - 1;
    if (user.password_hash === NO_PASSWORD && others === 0 && (await this.passkeys.count(user.id)) === 0)
      throw lastWayIn();
    await this.third.repo.unbind(user.id, provider);
  }

  /**
   * Refuses (11070) removing a passkey that is the last way into an account without a
   * password or a linked sign-in (one made by a third-party sign-in).
   */
  async assertPasskeyRemovable(user: UserRow): Promise<void> {
    if (user.password_hash !== NO_PASSWORD) return;
    if ((await this.third.repo.list(user.id)).length > 0) return;
    if ((await this.passkeys.count(user.id)) <= 1) throw lastWayIn();
  }

  /**
   * The asking browser's QR poll: the token's state, and on the poll that spends a
   * confirmation a session for the confirming account, bound to the device key this poll
   * proved (as a login binds it).
   */
  async pollQr(
    token: string,
    meta: RequestMeta & { deviceId: string },
  ): Promise<QrPoll & { session?: IssuedSession }> {
    const poll = await this.qr.poll(token, meta);
    if (poll.userId === undefined) return poll;
    const user = await this.repo.userById(poll.userId);
    if (user === undefined) throw new BusinessError(Code.SESSION_INVALID, "Please log in");
    if (user.frozen === 1) {
      await this.#history(user.id, meta, "frozen");
      throw new BusinessError(Code.SESSION_FROZEN, "This account is frozen");
    }
    return { ...poll, session: await this.#loggedIn(user, meta, "qr", false) };
  }

  async #history(
    userId: string,
    meta: RequestMeta,
    reason: string | null,
    success: { newDevice: boolean; verifiedBy: LoginProof | null } = { newDevice: false, verifiedBy: null },
  ): Promise<void> {
    await this.securityRepo.recordLogin({
      ...success,
      userId,
      at: this.#now(),
      success: reason === null,
      reason,
      ip: meta.ip,
      userAgent: meta.userAgent.slice(0, 512),
      deviceId: meta.deviceId ?? null,
    });
  }

  /**
   * A completed login: the session, the history line (with whether the device was new and
   * what the login proved besides the password), and a notice when the account had devices
   * before and this one is new to it. `factorProved`: the session counts as stepped up.
   */
  async #loggedIn(
    user: UserRow,
    meta: RequestMeta,
    verifiedBy: LoginProof | null,
    factorProved: boolean,
  ): Promise<IssuedSession> {
    const deviceId = meta.deviceId ?? null;
    const newDevice = deviceId !== null && !(await this.securityRepo.deviceExists(user.id, deviceId));
    const hadDevices = newDevice && (await this.securityRepo.hasDevices(user.id));
    const session = await this.#issueSession(
      user.id,
      meta,
      null,
      factorProved ? this.#now() : null,
      verifiedBy,
    );
    await this.#history(user.id, meta, null, { newDevice, verifiedBy });
    if (hadDevices) {
      await this.security.notify(user, {
        kind: "device",
        time: this.#now(),
        ip: meta.ip,
        device: deviceName(meta.userAgent),
      });
    }
    return session;
  }

  async #issueSession(
    userId: string,
    meta: RequestMeta,
    switchedFrom: string | null = null,
    steppedUpAt: number | null = null,
    verifiedBy: LoginProof | null = null,
  ): Promise<IssuedSession> {
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
      deviceId: meta.deviceId ?? null,
      switchedFrom,
      steppedUpAt,
    });
    if (meta.deviceId !== undefined && meta.deviceId !== null) {
      await this.securityRepo.seeDevice({
        userId,
        deviceId: meta.deviceId,
        userAgent: meta.userAgent.slice(0, 512),
        ip: meta.ip,
        now,
        verifiedBy,
      });
    }
    if (meta.device !== undefined) {
      await this.repo.upsertDevice({ userHash: sha256Hex(userId), userId, now, ...meta.device });
    }
    return { userId, token, refreshToken };
  }

  /** Resolves a session cookie; the error code tells the client whether to force a logout. */
  /**
   * The session and user rows behind a token, read once: `authenticate` and `sessionKey`
   * judge them (the request guard and the signature check share one read per request).
   */
  findSession(token: string): Promise<SessionLookup> {
    return this.repo.sessionWithUser(sha256Hex(token), this.#now());
  }

  async authenticate(token: string | undefined, lookup?: Promise<SessionLookup>): Promise<AuthContext> {
    if (token === undefined || token.length < 16)
      throw new BusinessError(Code.SESSION_INVALID, "Please log in");
    const now = this.#now();
    const found = await (lookup ?? this.findSession(token));
    const session = found?.session;
    if (session === undefined || session.expires_at < now) {
      throw new BusinessError(Code.SESSION_INVALID, "Your session has expired; please log in again");
    }
    if (session.revoked_at !== null) {
      if (session.revoke_reason === "kicked")
        throw new BusinessError(Code.SESSION_KICKED, "You were logged out from another place");
      throw new BusinessError(Code.SESSION_INVALID, "Your session has ended; please log in again");
    }
    const user = found?.user;
    if (user === undefined) throw new BusinessError(Code.SESSION_INVALID, "Please log in");
    if (user.frozen === 1) throw new BusinessError(Code.SESSION_FROZEN, "This account is frozen");
    await this.#touch(session.token_hash, now);
    return { user, session };
  }

  /** Writes a session's last-seen time at most every few minutes (the devices page reads it). */
  async #touch(tokenHash: string, now: number): Promise<void> {
    const last = this.#touched.get(tokenHash);
    if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
    if (this.#touched.size >= 50_000) this.#touched.clear();
    this.#touched.set(tokenHash, now);
    await this.repo.touchSession(tokenHash, now);
  }

  /** Rotates both tokens; a refresh token used twice revokes every session of the user (stolen-token signal). */
  async refresh(refreshToken: string | undefined, meta: RequestMeta): Promise<IssuedSession> {
    if (refreshToken === undefined) throw new BusinessError(Code.SESSION_INVALID, "Please log in");
    const session = await this.repo.sessionByRefresh(sha256Hex(refreshToken));
    const now = this.#now();
    if (session === undefined || session.refresh_expires_at < now)
      throw new BusinessError(Code.SESSION_INVALID, "Please log in");
    if (session.revoked_at !== null) {
      if (session.revoke_reason === "rotated")
        await this.repo.revokeUserSessions(session.user_id, "refresh-reuse", now);
      throw new BusinessError(Code.SESSION_INVALID, "Please log in");
    }
    await this.repo.revokeSession(session.token_hash, "rotated", now);
    const device =
      session.device_key_id !== null && session.device_public_key !== null && session.device_alg !== null
        ? { keyId: session.device_key_id, publicKey: session.device_public_key, alg: session.device_alg }
        : undefined;
    return this.#issueSession(session.user_id, { ...meta, device }, session.switched_from);
  }

  /**
   * Replaces the current session with one for `userId` (switching into a sub-account, or
   * back to its master): the old session ends (`switched`), the new one binds the device
   * key the encrypted switch request proved, and `switchedFrom` names the master while
   * in a sub, so the way back needs no password.
   */
  async switchSession(
    current: SessionRow,
    userId: string,
    switchedFrom: string | null,
    meta: RequestMeta,
  ): Promise<IssuedSession> {
    await this.repo.revokeSession(current.token_hash, "switched", this.#now());
    return this.#issueSession(userId, meta, switchedFrom);
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
  async sessionKey(
    token: string,
    lookup?: Promise<SessionLookup>,
  ): Promise<DeviceBinding | null | undefined> {
    const session = (await (lookup ?? this.findSession(token)))?.session;
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
   * user has no factor (nothing to check). With the authenticator on: true for a step-up of
   * the session at most 5 minutes old (`steppedUpAt`) when no code is typed, else whether
   * `code` is a fresh, unused TOTP code (a code is accepted once, as at login) or
   * `recoveryCode` one of the user's unused recovery codes (spent by this check). With
   * passkeys only: true after a recent step-up, else it throws 11036.
   */
  async checkSecondFactor(
    userId: string,
    code: string | undefined,
    ip: string,
    o: { recoveryCode?: string; steppedUpAt?: number | null } = {},
  ): Promise<boolean | undefined> {
    const { recoveryCode } = o;
    const user = await this.repo.userById(userId);
    if (user === undefined) return undefined;
    const recent =
      o.steppedUpAt !== undefined &&
      o.steppedUpAt !== null &&
      this.#now() - Number(o.steppedUpAt) <= STEP_UP_MS;
    if (user.google_enable !== 1 || user.google_secret_enc === null) {
      if ((await this.passkeys.count(user.id)) === 0 || recent) return undefined;
      throw new BusinessError(SecurityCode.STEP_UP_REQUIRED, "Confirm with your passkey first", {
        status: 403,
      });
    }
    if (recent && code === undefined && recoveryCode === undefined) return true;
    const sealed = user.google_secret_enc;
    if (recoveryCode !== undefined)
      return this.limiter.attempt([ipCounter(ip), secondFactorCounter(user.id)], () =>
        this.recovery.use(user.id, recoveryCode, this.#now()),
      );
    if (code === undefined) return false;
    return this.limiter.attempt([ipCounter(ip), secondFactorCounter(user.id)], () =>
      this.#useTotp(user.id, sealed, code),
    );
  }

  /**
   * E-mails the user a security notice when an address is bound (no-op otherwise), with
   * the anti-phishing code first once one is set, as every message carries it.
   */
  async notify(userId: string, subject: string, body: string): Promise<void> {
    const user = await this.repo.userById(userId);
    if (user?.email === null || user?.email === undefined) return;
    const code = user.anti_phishing_code;
    const text = code === "" ? body : `Anti-phishing code: ${code}\n\n${body}`;
    await this.#transport.send({ channel: "email", recipient: user.email, subject, text });
  }

  async googleSetup(user: UserRow): Promise<{ secret: string; otpauthUri: string }> {
    if (user.google_secret_enc !== null)
      throw new BusinessError(AccountCode.GOOGLE_ALREADY_BOUND, "An authenticator is already bound");
    const secret = newTotpSecret();
    await this.repo.setGooglePending(
      user.id,
      seal(this.#config.totpKey, secret, `totp:${user.id}`),
      this.#now(),
    );
    return { secret, otpauthUri: otpauthUri(secret, user.email ?? user.phone_key ?? user.id) };
  }

  /** Binds the pending authenticator and issues its ten recovery codes (returned this once). */
  async googleBind(userId: string, code: string, ip: string): Promise<string[]> {
    const user = await this.repo.userById(userId);
    if (user === undefined || user.google_pending_enc === null)
      throw new BusinessError(AccountCode.GOOGLE_CODE_INVALID, "Start the setup first");
    const sealed = user.google_pending_enc;
    const secret = open(this.#config.totpKey, sealed, `totp:${user.id}`);
    let step: number | undefined;
    const ok = await this.limiter.attempt([ipCounter(ip), secondFactorCounter(user.id)], async () => {
      step = verifyTotp(secret, code, this.#now());
      return step !== undefined;
    });
    if (!ok || step === undefined)
      throw new BusinessError(AccountCode.GOOGLE_CODE_INVALID, "Authenticator code is wrong");
    await this.repo.bindGoogle(user.id, sealed, step, this.#now());
    return this.recovery.issue(user.id, this.#now());
  }

  /** New recovery codes for a current authenticator code; the old ones stop working. */
  async regenerateRecoveryCodes(userId: string, code: string, ip: string): Promise<string[]> {
    const user = await this.repo.userById(userId);
    if (user === undefined || user.google_secret_enc === null)
      throw new BusinessError(SecurityCode.NOT_BOUND, "No authenticator is bound");
    const sealed = user.google_secret_enc;
    const ok = await this.limiter.attempt([ipCounter(ip), secondFactorCounter(user.id)], () =>
      this.#useTotp(user.id, sealed, code),
    );
    if (!ok) throw new BusinessError(AccountCode.GOOGLE_CODE_INVALID, "Authenticator code is wrong");
    const codes = await this.recovery.issue(user.id, this.#now());
    await this.security.notify(user, { kind: "setting", setting: "recoveryCodes", time: this.#now() });
    return codes;
  }

  /** Unused recovery codes of a user (none without a bound authenticator). */
  async recoveryStatus(user: UserRow): Promise<{ remaining: number; total: number }> {
    const remaining = user.google_secret_enc === null ? 0 : await this.recovery.remaining(user.id);
    return { remaining, total: RECOVERY_CODE_COUNT };
  }

  async googleSwitch(userId: string, code: string, enable: boolean, ip: string): Promise<void> {
    const user = await this.repo.userById(userId);
    if (user === undefined || user.google_secret_enc === null)
      throw new BusinessError(AccountCode.GOOGLE_CODE_INVALID, "No authenticator bound");
    const sealed = user.google_secret_enc;
    const ok = await this.limiter.attempt([ipCounter(ip), secondFactorCounter(user.id)], () =>
      this.#useTotp(user.id, sealed, code),
    );
    if (!ok) throw new BusinessError(AccountCode.GOOGLE_CODE_INVALID, "Authenticator code is wrong");
    await this.repo.setGoogleEnable(user.id, enable, this.#now());
  }

  /** True when `code` is the user's current authenticator code and its time step was not used before. */
  async #useTotp(userId: string, sealed: string, code: string): Promise<boolean> {
    const step = verifyTotp(open(this.#config.totpKey, sealed, `totp:${userId}`), code, this.#now());
    return step !== undefined && (await this.repo.useGoogleStep(userId, step));
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
      throw new BusinessError(AccountCode.KYC_STEP_INVALID, "Complete identity verification level 1 first");
    await this.repo.kycLevel2(
      user.id,
      { submissionId: crypto.randomUUID(), addressLine: body.addressLine, city: body.city },
      now,
    );
    return { kycLevel: 2 };
  }
}

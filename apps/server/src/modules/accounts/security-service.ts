import {
  AccountCode,
  type AntiPhishingBody,
  type ChangeEmailBody,
  type ChangePasswordBody,
  type ChangePhoneBody,
  Code,
  type DevicesAnswer,
  LOGIN_HISTORY_DAYS,
  type LoginFailure,
  type LoginHistoryAnswer,
  LoginProof,
  type ResetPasswordBody,
  type ResetSendCodeBody,
  SecurityCode,
  type SecuritySendCodeBody,
  STEP_UP_MS,
  type StepUpBody,
  type UnbindGoogleBody,
} from "@meridian/contracts";
import type { AttemptCounter, AttemptLimiter } from "../../platform/attempts/index.ts";
import { BusinessError } from "../../platform/errors.ts";
import { describeUserAgent } from "../security-report/index.ts";
import {
  type CodePurpose,
  type CodeTarget,
  emailTarget,
  maskAddress,
  phoneTarget,
  type Reader,
  sendMessage,
  type VerificationCodes,
} from "./codes.ts";
import type { AccountsConfig } from "./config.ts";
import {
  ACCOUNT_POLICY,
  ipCounter,
  passwordCounter,
  secondFactorCounter,
  sendIpCounter,
  sendRecipientCounter,
} from "./limits.ts";
import type { MailKind } from "./mail-templates.ts";
import type { Passkeys } from "./passkeys.ts";
import { type RecoveryCodes, recoveryCodeInvalid } from "./recovery-codes.ts";
import type { AccountsRepo, UserRow } from "./repo.ts";
import { hashPassword, open, verifyPassword } from "./secrets.ts";
import type { SecurityRepo } from "./security-repo.ts";
import { verifyTotp } from "./totp.ts";
import type { MessageTransport } from "./transport.ts";

const DAY_MS = 24 * 60 * 60_000;

export interface SecurityDeps {
  repo: AccountsRepo;
  securityRepo: SecurityRepo;
  codes: VerificationCodes;
  transport: MessageTransport;
  config: AccountsConfig;
  now: () => number;
  /** The accounts module's limiter: each guess is counted before the secret is checked. */
  limiter: AttemptLimiter;
  recovery: RecoveryCodes;
  passkeys: Passkeys;
}

/** The second factor a sensitive change carries: the authenticator code, or a recovery code in its place. */
export interface SecondFactorProof {
  googleCode?: string | undefined;
  recoveryCode?: string | undefined;
}

export interface Actor {
  user: UserRow;
  /** The acting session's token hash: kept when "every other session" is ended. */
  tokenHash: string;
  deviceId: string | null;
  ip: string;
  userAgent: string;
  /** When the acting session last proved a second factor (null: never). */
  steppedUpAt: number | null;
}

export function readerOf(user: UserRow): Reader {
  return { locale: user.locale, antiPhishingCode: user.anti_phishing_code };
}

/** A stored proof name as the pages show it (null for none, or one this version does not know). */
function proofOf(value: string | null): LoginProof | null {
  const parsed = LoginProof.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** "Chrome 131 on Windows": a device as messages and pages name it. */
export function deviceName(userAgent: string): string {
  const d = describeUserAgent(userAgent);
  return [d.browser, d.os].filter((s) => s !== "").join(", ") || "unknown device";
}

/**
 * The account centre's rules: password change and reset, the anti-phishing code,
 * re-binding the e-mail, phone and authenticator, devices and the login history.
 * Every guess (password, code, authenticator) goes through `#attempt`, the one place the
 * brute-force limits apply.
 */
export class AccountSecurity {
  readonly #d: SecurityDeps;

  constructor(deps: SecurityDeps) {
    this.#d = deps;
  }

  /**
   * Runs one guess under `counter` and the caller's address (platform/attempts counts the
   * try before `check` runs, so parallel guesses share the budget): refused while blocked.
   */
  #attempt(counter: AttemptCounter, ip: string, check: () => Promise<boolean>): Promise<boolean> {
    return this.#d.limiter.attempt([ipCounter(ip), counter], check);
  }

  /** Where "current" codes go: the bound e-mail, else the bound phone. */
  #current(user: UserRow): CodeTarget {
    if (user.email !== null) return emailTarget(user.email);
    if (user.phone_key !== null) return { channel: "sms", address: user.phone_key };
    throw new BusinessError(SecurityCode.NOT_BOUND, "No e-mail or phone is bound");
  }

  async #googleOk(user: UserRow, code: string | undefined): Promise<boolean> {
    if (code === undefined || user.google_secret_enc === null) return false;
    const secret = open(this.#d.config.totpKey, user.google_secret_enc, `totp:${user.id}`);
    const step = verifyTotp(secret, code, this.#d.now());
    return step !== undefined && (await this.#d.repo.useGoogleStep(user.id, step));
  }

  /**
   * The second factor a sensitive change asks for. With the authenticator on: its code (or
   * a recovery code) in the body, or the session's step-up at most 5 minutes old. With
   * passkeys and no authenticator: the step-up (a passkey cannot be typed into a form).
   * Without a session (the password reset) only the authenticator's code counts.
   */
  async #secondFactor(user: UserRow, proof: SecondFactorProof, ip: string, actor?: Actor): Promise<void> {
    const typed = proof.googleCode !== undefined || proof.recoveryCode !== undefined;
    if (user.google_enable === 1) {
      if (!typed && actor !== undefined && this.#recentStepUp(actor)) return;
      await this.#authenticatorProof(user, proof, ip);
      return;
    }
    if (actor !== undefined) await this.assertStepUp(actor);
  }

  #recentStepUp(actor: Actor): boolean {
    return actor.steppedUpAt !== null && this.#d.now() - Number(actor.steppedUpAt) <= STEP_UP_MS;
  }

  /** Refuses (11036) a change while the account has a factor and the session proved none lately. */
  assertStepUp(actor: Actor): Promise<void> {
    return this.assertStepUpFor(actor.user, actor.steppedUpAt);
  }

  /** `assertStepUp` for other modules: the user and their session's `stepped_up_at`. */
  async assertStepUpFor(user: UserRow, steppedUpAt: number | null): Promise<void> {
    if (steppedUpAt !== null && this.#d.now() - Number(steppedUpAt) <= STEP_UP_MS) return;
    const bound = user.google_enable === 1 || (await this.#d.passkeys.count(user.id)) > 0;
    if (bound)
      throw new BusinessError(
        SecurityCode.STEP_UP_REQUIRED,
        "Confirm with your passkey or authenticator first",
        {
          status: 403,
        },
      );
  }

  /** Passkey request options for a step-up (the user's own passkeys only). */
  stepUpOptions(actor: Actor) {
    return this.#d.passkeys.secondStepOptions(actor.user.id, "stepup");
  }

  /** Proves a factor for the acting session: sensitive changes then pass for 5 minutes. */
  async stepUp(actor: Actor, body: StepUpBody): Promise<{ validUntil: number }> {
    const { user } = actor;
    const fido = body.fidoVerifyCode;
    if (fido !== undefined && body.googleCode === undefined && body.recoveryCode === undefined) {
      await this.#d.limiter.attempt([ipCounter(actor.ip), secondFactorCounter(user.id)], async () => {
        await this.#d.passkeys.authenticate(fido, "stepup", user.id);
        return true;
      });
    } else {
      if (user.google_secret_enc === null)
        throw new BusinessError(SecurityCode.NOT_BOUND, "No authenticator is bound");
      await this.#authenticatorProof(user, body, actor.ip);
    }
    const now = this.#d.now();
    await this.#d.repo.markSteppedUp(actor.tokenHash, now);
    return { validUntil: now + STEP_UP_MS };
  }

  /** The authenticator's code, or one of its recovery codes (spent here), under the second-factor limits. */
  async #authenticatorProof(user: UserRow, proof: SecondFactorProof, ip: string): Promise<void> {
    const { recoveryCode } = proof;
    if (recoveryCode !== undefined) {
      const ok = await this.#attempt(secondFactorCounter(user.id), ip, () =>
        this.#d.recovery.use(user.id, recoveryCode, this.#d.now()),
      );
      if (!ok) throw recoveryCodeInvalid();
      return;
    }
    if (
      !(await this.#attempt(secondFactorCounter(user.id), ip, () => this.#googleOk(user, proof.googleCode)))
    )
      throw new BusinessError(AccountCode.GOOGLE_CODE_INVALID, "Authenticator code is wrong");
  }

  async #codeOk(
    user: UserRow,
    target: CodeTarget,
    purpose: CodePurpose,
    code: string,
    ip: string,
  ): Promise<void> {
    if (
      !(await this.#attempt(secondFactorCounter(user.id), ip, () =>
        this.#d.codes.check(target, purpose, code),
      ))
    )
      throw new BusinessError(AccountCode.VERIFY_CODE_INVALID, "Verification code is wrong or expired");
  }

  /** A notice to the account's e-mail (or phone when it has none), in its language. */
  async notify(user: UserRow, message: MailKind, to?: CodeTarget): Promise<void> {
    // An account made by a Telegram sign-in may have no address: nowhere to send a notice.
    if (to === undefined && user.email === null && user.phone_key === null) return;
    const target = to ?? this.#current(user);
    await sendMessage(this.#d.transport, target, message, readerOf(user));
  }

  /** Codes for a logged-in change: to the current contact, or to the new address being bound. */
  async sendCode(user: UserRow, body: SecuritySendCodeBody): Promise<{ sentTo: string }> {
    let target: CodeTarget;
    if (body.to === "current") target = this.#current(user);
    else if (body.purpose === "changeEmail" && body.email !== undefined) target = emailTarget(body.email);
    else if (body.purpose === "changePhone" && body.areaCode !== undefined && body.mobile !== undefined)
      target = phoneTarget(body.areaCode, body.mobile);
    else throw new BusinessError(Code.VALIDATION_FAILED, "A new e-mail, or area code and phone, is required");
    if (body.to === "new") await this.#assertFree(user, target);
    await this.#d.codes.send(target, body.purpose, readerOf(user));
    return { sentTo: maskAddress(target.address) };
  }

  async #assertFree(user: UserRow, target: CodeTarget): Promise<void> {
    const owner =
      target.channel === "email"
        ? await this.#d.repo.userByEmail(target.address)
        : await this.#d.repo.userByPhoneKey(target.address);
    if (owner !== undefined)
      throw new BusinessError(
        SecurityCode.ADDRESS_TAKEN,
        owner.id === user.id ? "This address is already bound to your account" : "This address is taken",
      );
  }

  async changePassword(actor: Actor, body: ChangePasswordBody): Promise<{ revoked: number }> {
    const { user } = actor;
    const ok = await this.#attempt(passwordCounter({ userId: user.id }), actor.ip, () =>
      verifyPassword(user.password_hash, body.oldPwd),
    );
    if (!ok) throw new BusinessError(SecurityCode.PASSWORD_WRONG, "The current password is wrong");
    await this.#secondFactor(user, body, actor.ip, actor);
    if (await verifyPassword(user.password_hash, body.pwd))
      throw new BusinessError(
        SecurityCode.PASSWORD_UNCHANGED,
        "The new password must differ from the current one",
      );
    const now = this.#d.now();
    await this.#d.repo.setPassword(user.id, await hashPassword(body.pwd), now);
    const revoked = await this.#d.repo.revokeOtherSessions(user.id, actor.tokenHash, "password", now);
    await this.notify(user, {
      kind: "password",
      time: now,
      ip: actor.ip,
      device: deviceName(actor.userAgent),
    });
    return { revoked };
  }

  #resetTarget(body: { account: string; areaCode?: string | undefined }): CodeTarget {
    return body.account.includes("@")
      ? emailTarget(body.account)
      : phoneTarget(body.areaCode ?? "", body.account.replace(/\D/g, ""));
  }

  async #userAt(target: CodeTarget): Promise<UserRow | undefined> {
    return target.channel === "email"
      ? this.#d.repo.userByEmail(target.address)
      : this.#d.repo.userByPhoneKey(target.address);
  }

  /** Sends a reset code when the account exists; the answer is the same either way (no enumeration). */
  async sendResetCode(body: ResetSendCodeBody, ip: string): Promise<{ sentTo: string }> {
    const target = this.#resetTarget(body);
    const user = await this.#userAt(target);
    // Unknown addresses spend the same send budgets, so the limits reveal nothing either.
    if (user !== undefined) await this.#d.codes.send(target, "reset", readerOf(user), { ip });
    else await this.#d.limiter.spend([sendIpCounter(ip), sendRecipientCounter(target.address)]);
    return { sentTo: maskAddress(target.address) };
  }

  async resetPassword(body: ResetPasswordBody, meta: { ip: string; userAgent: string }): Promise<void> {
    const target = this.#resetTarget(body);
    const counter: AttemptCounter = {
      key: `reset:${target.address}`,
      policy: ACCOUNT_POLICY,
      onSuccess: "reset",
    };
    const user = await this.#userAt(target);
    const invalid = () =>
      new BusinessError(AccountCode.VERIFY_CODE_INVALID, "Verification code is wrong or expired");
    // The code is checked but kept until the second factor passes: a page told to confirm
    // with a passkey repeats the reset with the same code.
    const ok = await this.#attempt(counter, meta.ip, async () =>
      user === undefined ? false : this.#d.codes.check(target, "reset", body.verifyCode, { consume: false }),
    );
    if (!ok || user === undefined) throw invalid();
    await this.#resetSecondFactor(user, body, meta.ip);
    if (!(await this.#d.codes.check(target, "reset", body.verifyCode))) throw invalid();
    const now = this.#d.now();
    await this.#d.repo.setPassword(user.id, await hashPassword(body.pwd), now);
    await this.#d.repo.revokeUserSessions(user.id, "password", now);
    await this.notify(user, { kind: "password", time: now, ip: meta.ip, device: deviceName(meta.userAgent) });
  }

  /**
   * The logged-out reset's second factor, after the mailed code: a passkey of the account
   * (`fidoVerifyCode`) where it has one, else the authenticator's code or a recovery code
   * when it is on. An account with passkeys and nothing typed answers 11036 (HTTP 403): the
   * page asks the browser for a passkey and repeats the reset.
   */
  async #resetSecondFactor(user: UserRow, body: ResetPasswordBody, ip: string): Promise<void> {
    const typed = body.googleCode !== undefined || body.recoveryCode !== undefined;
    const fido = typed ? undefined : body.fidoVerifyCode;
    const passkeys = await this.#d.passkeys.count(user.id);
    if (fido !== undefined) {
      if (passkeys === 0) {
        await this.#attempt(secondFactorCounter(user.id), ip, async () => false);
        throw new BusinessError(AccountCode.LOGIN_STEP_NOT_OFFERED, "This account has no passkey", {
          status: 404,
        });
      }
      await this.#attempt(secondFactorCounter(user.id), ip, async () => {
        await this.#d.passkeys.authenticate(fido, "reset", null, user.id);
        return true;
      });
      return;
    }
    if (user.google_enable === 1 && (typed || passkeys === 0)) {
      await this.#authenticatorProof(user, body, ip);
      return;
    }
    if (passkeys > 0)
      throw new BusinessError(SecurityCode.STEP_UP_REQUIRED, "Confirm with your passkey", { status: 403 });
  }

  /** Passkey request options for the logged-out reset (any passkey of the site; see `resetPassword`). */
  resetOptions() {
    return this.#d.passkeys.resetOptions();
  }

  async setAntiPhishing(actor: Actor, body: AntiPhishingBody): Promise<void> {
    const { user } = actor;
    await this.#codeOk(user, this.#current(user), "antiPhishing", body.verifyCode, actor.ip);
    await this.#secondFactor(user, body, actor.ip, actor);
    const now = this.#d.now();
    await this.#d.repo.patchUser(user.id, { anti_phishing_code: body.antiPhishingCode }, now);
    // The notice already carries the new code: the user sees at once what genuine mail looks like.
    await this.notify(
      { ...user, anti_phishing_code: body.antiPhishingCode },
      { kind: "setting", setting: "antiPhishing", time: now },
    );
  }

  async changeEmail(actor: Actor, body: ChangeEmailBody): Promise<void> {
    const { user } = actor;
    const next = emailTarget(body.email);
    await this.#assertFree(user, next);
    const old = this.#current(user);
    await this.#codeOk(user, old, "changeEmail", body.oldCode, actor.ip);
    await this.#codeOk(user, next, "changeEmail", body.newCode, actor.ip);
    await this.#secondFactor(user, body, actor.ip, actor);
    const now = this.#d.now();
    if (!(await this.#d.repo.patchUser(user.id, { email: next.address }, now)))
      throw new BusinessError(SecurityCode.ADDRESS_TAKEN, "This address is taken");
    const message: MailKind = { kind: "setting", setting: "email", time: now };
    await this.notify(user, message, old);
    await this.notify(user, message, next);
  }

  async changePhone(actor: Actor, body: ChangePhoneBody): Promise<void> {
    const { user } = actor;
    const next = phoneTarget(body.areaCode, body.mobile);
    await this.#assertFree(user, next);
    const old = this.#current(user);
    await this.#codeOk(user, old, "changePhone", body.oldCode, actor.ip);
    await this.#codeOk(user, next, "changePhone", body.newCode, actor.ip);
    await this.#secondFactor(user, body, actor.ip, actor);
    const now = this.#d.now();
    const patch = {
      area_code: body.areaCode.replace(/^\+/, ""),
      mobile: body.mobile,
      phone_key: next.address,
    };
    if (!(await this.#d.repo.patchUser(user.id, patch, now)))
      throw new BusinessError(SecurityCode.ADDRESS_TAKEN, "This phone number is taken");
    await this.notify(user, { kind: "setting", setting: "phone", time: now }, old);
  }

  async unbindGoogle(actor: Actor, body: UnbindGoogleBody): Promise<void> {
    const { user } = actor;
    if (user.google_secret_enc === null)
      throw new BusinessError(SecurityCode.NOT_BOUND, "No authenticator is bound");
    await this.#codeOk(user, this.#current(user), "unbindGoogle", body.verifyCode, actor.ip);
    await this.#authenticatorProof(user, body, actor.ip);
    const now = this.#d.now();
    await this.#d.repo.patchUser(
      user.id,
      { google_secret_enc: null, google_pending_enc: null, google_enable: 0 },
      now,
    );
    // The codes belong to the authenticator: a new one comes with ten new codes.
    await this.#d.recovery.clear(user.id);
    await this.notify(user, { kind: "setting", setting: "google", time: now });
  }

  async devices(actor: Actor): Promise<DevicesAnswer> {
    const rows = await this.#d.securityRepo.devices(actor.user.id, this.#d.now());
    return {
      devices: rows.map((r) => {
        const ua = describeUserAgent(r.user_agent);
        return {
          deviceId: r.device_id,
          browser: ua.browser,
          os: ua.os,
          ip: r.ip,
          firstSeen: Number(r.first_seen),
          lastSeen: Math.max(Number(r.last_seen), Number(r.session_seen ?? 0)),
          sessions: Number(r.sessions),
          current: r.device_id === actor.deviceId,
          verifiedBy: proofOf(r.verified_by),
        };
      }),
    };
  }

  /** Logs a device out (this device: its other sessions only; the acting session stays). */
  async revokeDevice(actor: Actor, deviceId: string): Promise<{ revoked: number }> {
    if (!(await this.#d.securityRepo.deviceExists(actor.user.id, deviceId)))
      throw new BusinessError(SecurityCode.DEVICE_NOT_FOUND, "No such device");
    const revoked = await this.#d.repo.revokeDeviceSessions(
      actor.user.id,
      deviceId,
      actor.tokenHash,
      "device",
      this.#d.now(),
    );
    return { revoked };
  }

  async revokeOthers(actor: Actor): Promise<{ revoked: number }> {
    const revoked = await this.#d.repo.revokeOtherSessions(
      actor.user.id,
      actor.tokenHash,
      "device",
      this.#d.now(),
    );
    return { revoked };
  }

  async history(actor: Actor, page: number, pageSize: number): Promise<LoginHistoryAnswer> {
    const since = this.#d.now() - LOGIN_HISTORY_DAYS * DAY_MS;
    const { rows, total } = await this.#d.securityRepo.history(
      actor.user.id,
      since,
      (page - 1) * pageSize,
      pageSize,
    );
    return {
      items: rows.map((r) => {
        const ua = describeUserAgent(r.user_agent);
        return {
          at: Number(r.at),
          success: Number(r.success) === 1,
          reason: r.success ? null : ((r.reason ?? "password") as LoginFailure),
          ip: r.ip,
          browser: ua.browser,
          os: ua.os,
          newDevice: Number(r.new_device) === 1,
          verifiedBy: proofOf(r.verified_by),
        };
      }),
      total,
      page,
      pageSize,
    };
  }

  /** The futures risk agreement, accepted once (docs/product.md §3: openContract). */
  async agreeContract(user: UserRow): Promise<void> {
    if (user.open_contract === 1) return;
    await this.#d.repo.patchUser(user.id, { open_contract: 1 }, this.#d.now());
  }

  async pruneHistory(): Promise<number> {
    return this.#d.securityRepo.pruneHistory(this.#d.now() - LOGIN_HISTORY_DAYS * DAY_MS);
  }
}

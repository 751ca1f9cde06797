import { recoveryCodeSchema } from "./accounts.ts";
import { z } from "./zod-csp.ts";

/**
 * The account centre's security calls: password change and reset, the anti-phishing
 * code, devices and sessions, login history, changing the bound e-mail, phone and
 * authenticator, and the futures agreement. Codes continue the 11xxx accounts range.
 */
export const SecurityCode = {
  /** The current password given to a change is wrong. */
  PASSWORD_WRONG: "11030",
  /** The new password equals the current one. */
  PASSWORD_UNCHANGED: "11031",
  /** The operation needs a binding the account does not have (unbind what is not bound...). */
  NOT_BOUND: "11032",
  /** The device or session named is not this user's, or is already ended. */
  DEVICE_NOT_FOUND: "11034",
  /** The address is already bound to this or another account. */
  ADDRESS_TAKEN: "11035",
  /**
   * The change needs a second factor proved in the last 5 minutes (the account has a
   * passkey or an authenticator): `POST /v1/user/security/stepUp`, then retry (HTTP 403).
   */
  STEP_UP_REQUIRED: "11036",
} as const;

/** How long a proved second factor opens sensitive changes. */
export const STEP_UP_MS = 5 * 60_000;

const password = z.string().min(8, "min").max(128, "max");
const email = z.email().max(254);
const areaCode = z.string().regex(/^\+?\d{1,4}$/);
const mobile = z.string().regex(/^\d{4,15}$/);
const code6 = z.string().regex(/^\d{6}$/);
/** Wherever the authenticator code is asked, one of the account's recovery codes may replace it. */
const recoveryCode = recoveryCodeSchema.optional();

/**
 * What a logged-in code is for. `current` codes go to the bound e-mail (or the phone when
 * no e-mail is bound); `new` codes go to the address in the body.
 */
export const SecurityCodePurpose = z.enum([
  "password",
  "antiPhishing",
  "changeEmail",
  "changePhone",
  "unbindGoogle",
]);
export type SecurityCodePurpose = z.infer<typeof SecurityCodePurpose>;

export const securitySendCodeBody = z.object({
  purpose: SecurityCodePurpose,
  to: z.enum(["current", "new"]).default("current"),
  email: email.optional(),
  areaCode: areaCode.optional(),
  mobile: mobile.optional(),
});
export type SecuritySendCodeBody = z.infer<typeof securitySendCodeBody>;

/** Sends a reset code to the account's e-mail or phone; the same answer whether or not it exists. */
export const resetSendCodeBody = z.object({
  account: z.string().trim().min(3).max(254),
  areaCode: areaCode.optional(),
});
export type ResetSendCodeBody = z.infer<typeof resetSendCodeBody>;

export const resetPasswordBody = z.object({
  account: z.string().trim().min(3).max(254),
  areaCode: areaCode.optional(),
  verifyCode: code6,
  pwd: password,
  /** Required when the account has an authenticator turned on (or `recoveryCode`, or `fidoVerifyCode`). */
  googleCode: code6.optional(),
  recoveryCode,
  /**
   * A passkey assertion (JSON) on options from `/v1/user/public/password/reset/options`:
   * the second factor of an account with passkeys (in place of the authenticator's code).
   */
  fidoVerifyCode: z.string().min(2).max(8_192).optional(),
});
export type ResetPasswordBody = z.infer<typeof resetPasswordBody>;

export const changePasswordBody = z.object({
  oldPwd: z.string().min(1).max(128),
  pwd: password,
  /** Required when the account has an authenticator turned on (or `recoveryCode`). */
  googleCode: code6.optional(),
  recoveryCode,
});
export type ChangePasswordBody = z.infer<typeof changePasswordBody>;

/** Letters and digits, 4 to 20: what exchanges allow, and nothing that could carry markup into an e-mail. */
export const ANTI_PHISHING_PATTERN = /^[A-Za-z0-9]{4,20}$/;

export const antiPhishingBody = z.object({
  antiPhishingCode: z.string().regex(ANTI_PHISHING_PATTERN),
  /** Sent to the current e-mail or phone (purpose antiPhishing). */
  verifyCode: code6,
  googleCode: code6.optional(),
  recoveryCode,
});
export type AntiPhishingBody = z.infer<typeof antiPhishingBody>;

export const changeEmailBody = z.object({
  email,
  /** Sent to the new address. */
  newCode: code6,
  /** Sent to the current e-mail or phone (purpose changeEmail, to current). */
  oldCode: code6,
  googleCode: code6.optional(),
  recoveryCode,
});
export type ChangeEmailBody = z.infer<typeof changeEmailBody>;

export const changePhoneBody = z.object({
  areaCode,
  mobile,
  newCode: code6,
  oldCode: code6,
  googleCode: code6.optional(),
  recoveryCode,
});
export type ChangePhoneBody = z.infer<typeof changePhoneBody>;

/** The authenticator's code, or a recovery code when the authenticator is lost. */
export const unbindGoogleBody = z
  .object({
    googleCode: code6.optional(),
    recoveryCode,
    /** Sent to the current e-mail or phone (purpose unbindGoogle). */
    verifyCode: code6,
  })
  .refine((b) => b.googleCode !== undefined || b.recoveryCode !== undefined, {
    path: ["googleCode"],
    message: "googleCode or recoveryCode is required",
  });
export type UnbindGoogleBody = z.infer<typeof unbindGoogleBody>;

/** Proves a factor for the session: an authenticator code, a recovery code or a passkey assertion. */
export const stepUpBody = z
  .object({
    googleCode: code6.optional(),
    recoveryCode,
    fidoVerifyCode: z.string().min(2).max(16_384).optional(),
  })
  .refine(
    (b) => b.googleCode !== undefined || b.recoveryCode !== undefined || b.fidoVerifyCode !== undefined,
    {
      path: ["googleCode"],
      message: "googleCode, recoveryCode or fidoVerifyCode is required",
    },
  );
export type StepUpBody = z.infer<typeof stepUpBody>;

export const revokeDeviceBody = z.object({ deviceId: z.string().regex(/^[0-9a-f]{16,64}$/) });

export const loginHistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).default(20),
});

/** One browser or app the account logged in from (a long-lived device cookie). */
export interface DeviceDto {
  deviceId: string;
  browser: string;
  os: string;
  ip: string;
  firstSeen: number;
  lastSeen: number;
  /** Live sessions on this device. */
  sessions: number;
  current: boolean;
  /** What the login that first saw this device proved besides the password (null: nothing more, or before this was kept). */
  verifiedBy: LoginProof | null;
}

export interface DevicesAnswer {
  devices: DeviceDto[];
}

/**
 * What a login proved besides the password: a second factor, the e-mail (or SMS) code a
 * device new to the account is asked for, or a QR code confirmed by a logged-in session.
 */
export const LoginProof = z.enum(["email", "mobile", "google", "recovery", "passkey", "qr"]);
export type LoginProof = z.infer<typeof LoginProof>;

/** Why a login failed, as the history shows it. */
export const LoginFailure = z.enum(["password", "second-factor", "frozen", "throttled"]);
export type LoginFailure = z.infer<typeof LoginFailure>;

export interface LoginHistoryItem {
  at: number;
  success: boolean;
  reason: LoginFailure | null;
  ip: string;
  browser: string;
  os: string;
  /** A successful login from a browser the account had not used before. */
  newDevice: boolean;
  /** What a successful login proved besides the password (null: the password alone). */
  verifiedBy: LoginProof | null;
}

export interface LoginHistoryAnswer {
  items: LoginHistoryItem[];
  total: number;
  page: number;
  pageSize: number;
}

/** Login history is kept this long. */
export const LOGIN_HISTORY_DAYS = 90;

/** An API key as the security page lists it (the key management itself lives at /account/newapi). */
export interface ApiKeySummary {
  apiKey: string;
  label: string;
  permissions: string[];
  /** The account the key belongs to: the master, or one of its sub-accounts. */
  userId: string;
  subAccount: boolean;
  createdAt: number;
}

import { z } from "./zod-csp.ts";

export {
  REFRESH_COOKIE,
  SESSION_COOKIE,
  toUserRecord,
  USER_ID_STORAGE_KEY,
  type UserInfoDto,
  type UserInfoResponse,
  type UserRecord,
  type UserSettingsDto,
} from "./user-record.ts";

/**
 * Accounts API (docs/product.md §3, 4, 6, 7). Codes in the 11xxx range are ours; the
 * spec's forced-logout and gateway codes live in `codes.ts`.
 */
export const AccountCode = {
  INVALID_CREDENTIALS: "11001",
  /** Too many failed attempts: retry after `data.retryAfterMs`. */
  LOGIN_THROTTLED: "11002",
  VERIFY_CODE_INVALID: "11003",
  ACCOUNT_EXISTS: "11004",
  GOOGLE_CODE_INVALID: "11006",
  GOOGLE_ALREADY_BOUND: "11007",
  KYC_STEP_INVALID: "11008",
  /** A recovery code that is wrong or was used before (each works once). */
  RECOVERY_CODE_INVALID: "11009",
  /**
   * A login path of the spec's list that Meridian does not offer (agency login, the
   * system and auth-app login steps) or a factor the account has not bound: HTTP 404.
   */
  LOGIN_STEP_NOT_OFFERED: "11010",
  /**
   * A passkey that does not verify: wrong origin or relying party, spent or unknown
   * challenge, bad signature, a signature counter that did not move forward (HTTP 400).
   */
  PASSKEY_INVALID: "11011",
  /** One uniform answer for any login-body decryption failure (no padding oracle). */
  DECRYPT_FAILED: "11020",
} as const;

const password = z.string().min(8, "min").max(128, "max");
const email = z.email().max(254);
const areaCode = z.string().regex(/^\+?\d{1,4}$/);
const mobile = z.string().regex(/^\d{4,15}$/);
const code6 = z.string().regex(/^\d{6}$/);

/** Recovery codes issued with an authenticator: how many, and the letters they use (no 0/o, 1/l/i). */
export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_CODE_ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
/**
 * A recovery code as typed: ten of those letters, any case, in two groups of five with an
 * optional dash or space between them (`k7mfq-2xw9p`).
 */
export const recoveryCodeSchema = z
  .string()
  .trim()
  .regex(/^[a-hj-km-np-z2-9]{5}[- ]?[a-hj-km-np-z2-9]{5}$/i);

export const sendCodeBody = z.object({
  bizType: z.enum(["register", "login", "bind"]),
  email: email.optional(),
  areaCode: areaCode.optional(),
  mobile: mobile.optional(),
});
export type SendCodeBody = z.infer<typeof sendCodeBody>;

const deviceFields = {
  hashUserId: z.string().max(128).optional(),
  userCheckDeviceSign: z.string().max(1024).optional(),
  lastAlgorithm: z.string().max(32).optional(),
  /** The ms time the device check signed (the request's own `tm` is taken later). */
  deviceCheckTime: z
    .string()
    .regex(/^\d{13}$/)
    .optional(),
};

export const registerEmailBody = z.object({
  email,
  emailCode: code6,
  pwd: password,
  inviteCode: z.string().max(32).optional(),
});
export const registerMobileBody = z.object({
  areaCode,
  mobile,
  mobileCode: code6,
  pwd: password,
  inviteCode: z.string().max(32).optional(),
});
export const registerMobileAndEmailBody = z.object({
  email,
  emailCode: code6,
  areaCode,
  mobile,
  mobileCode: code6,
  pwd: password,
  inviteCode: z.string().max(32).optional(),
});
export type RegisterEmailBody = z.infer<typeof registerEmailBody>;
export type RegisterMobileBody = z.infer<typeof registerMobileBody>;
export type RegisterMobileAndEmailBody = z.infer<typeof registerMobileAndEmailBody>;

/** `loginName` is an email, or a phone number with `areaCode`. */
export const loginBody = z.object({
  loginName: z.string().min(3).max(254),
  areaCode: areaCode.optional(),
  pwd: z.string().min(1).max(128),
  ...deviceFields,
});
export type LoginBody = z.infer<typeof loginBody>;

export const verifyLoginBody = z.object({
  verifyToken: z.string().min(16).max(128),
  emailCode: code6.optional(),
  mobileCode: code6.optional(),
  googleCode: code6.optional(),
  /** In place of the authenticator code: one of the account's unused recovery codes. */
  recoveryCode: recoveryCodeSchema.optional(),
});
export type VerifyLoginBody = z.infer<typeof verifyLoginBody>;

/**
 * `/v1/user/login/verify-login-v2`: the same challenge, answered with any one factor the
 * challenge lists, `fidoVerifyCode` (a passkey assertion, JSON) among them.
 */
export const verifyLoginV2Body = verifyLoginBody.extend({
  fidoVerifyCode: z.string().min(2).max(8_192).optional(),
});
export type VerifyLoginV2Body = z.infer<typeof verifyLoginV2Body>;

/**
 * Login paths of the spec's list that Meridian does not offer: any body is read as such
 * (encrypted like the other login paths) and answered 11010, never a decryption error.
 */
export const notOfferedLoginBody = z.looseObject({});

/**
 * The encrypted login paths Meridian answers "not offered" (11010): agency (broker)
 * accounts, the "system" login step and the auth-app login step do not exist here.
 */
export const NOT_OFFERED_LOGIN_PATHS = [
  "/v1/user/agency/login",
  "/v1/user/login/verifySystemLogin",
  "/v1/user/login/verifySystemLogin-v2",
  "/v1/user/login/verify-auth-login",
] as const;

/** `recovery`: a recovery code may stand in for the authenticator (offered while some are unused). */
export const VerifyMethod = z.enum(["email", "mobile", "google", "recovery", "passkey"]);
export type VerifyMethod = z.infer<typeof VerifyMethod>;

/** Answer of a password step that needs a second factor (`verifyRequired: true`). */
export interface LoginChallenge {
  verifyToken: string;
  /** Any one of these completes the login; google is required when enabled. */
  methods: VerifyMethod[];
  /** Masked destination of the code that was sent. */
  sentTo?: string;
  /** With `passkey` among the methods: the WebAuthn request options for `fidoVerifyCode`. */
  fidoOptions?: unknown;
  /**
   * True when the step is asked because this browser (its device cookie) never logged in to
   * the account, which has no second factor bound: the code was sent to its e-mail.
   */
  newDevice?: boolean;
}

/** A passkey of the account as the security page lists it. */
export interface PasskeyDto {
  /** The credential id (base64url). */
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
}

/** A WebAuthn credential as the browser serialises it (`JSON.stringify` of the response JSON). */
const credentialJson = z.string().min(2).max(16_384);

export const passkeyRegisterBody = z.object({
  name: z.string().trim().min(1).max(64),
  credential: credentialJson,
});
export const passkeyDeleteBody = z.object({ id: z.string().regex(/^[A-Za-z0-9_-]{16,1024}$/) });
/** Signing in with a passkey alone (encrypted like the other login paths). */
export const passkeyLoginBody = z.object({ fidoVerifyCode: credentialJson });
/** A write whose only input is the session or nothing at all. */
export const emptyBody = z.object({});

export const googleBindBody = z.object({ googleCode: code6 });
/** New recovery codes replace the old ones; a current authenticator code is needed. */
export const recoveryCodesBody = z.object({ googleCode: code6 });

/** Answer of binding the authenticator and of regenerating: the codes in plain text, this once. */
export interface RecoveryCodesIssued {
  recoveryCodes: string[];
}

/** How many of the account's recovery codes are unused (0 with no authenticator bound). */
export interface RecoveryCodesStatus {
  remaining: number;
  total: number;
}
export const googleSwitchBody = z.object({ googleCode: code6, enable: z.boolean() });

export const kycSubmitBody = z.discriminatedUnion("step", [
  z.object({
    step: z.literal(1),
    familyName: z.string().trim().min(1).max(64),
    givenName: z.string().trim().min(1).max(64),
    country: z.string().regex(/^[A-Z]{2}$/),
    documentNumber: z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{5,32}$/),
  }),
  z.object({
    step: z.literal(2),
    /** Proof of address or selfie reference; this simulation product approves it at once. */
    addressLine: z.string().trim().min(5).max(200),
    city: z.string().trim().min(1).max(100),
  }),
]);
export type KycSubmitBody = z.infer<typeof kycSubmitBody>;

/** Login success answer: the user id is read from `userInfo.userId` (or `accessTokenResVO.userInfo.userId`). */
export interface LoginSuccess {
  verifyRequired: false;
  userInfo: { userId: string };
  /** True when the device check signature matched a key this account bound before. */
  knownDevice: boolean;
}

export type LoginAnswer = LoginSuccess | ({ verifyRequired: true } & LoginChallenge);

export interface GoogleSetup {
  secret: string;
  otpauthUri: string;
}

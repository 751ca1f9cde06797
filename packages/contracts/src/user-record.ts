/**
 * The session's cookie and storage names and the user record built from the user-info
 * answer (docs/product.md §3, 4). No zod here: the browser's API client loads this at app
 * start, and the accounts schemas (accounts.ts, which re-exports all of it) would be built
 * with it. Keep it free of schemas.
 */

/** Cookie names: the session token and the refresh token (both HttpOnly). */
export const SESSION_COOKIE = "mer_token";
export const REFRESH_COOKIE = "mer_refresh";

/** Local-storage key for the cached user id (docs/product.md §3: "user id"). */
export const USER_ID_STORAGE_KEY = "userId";

/** `userInfo` of POST /v1/user/overview/userinfo. */
export interface UserInfoDto {
  userId: string;
  loginName: string;
  userName: string;
  nickName: string;
  email: string;
  phone: string;
  mobile: string;
  areaCode: string;
  createdDate: number;
  updatedDate: number;
  familyName: string;
  givenName: string;
  realName: string;
  starRealName: string;
  antiPhishingCode: string;
  isFund: boolean;
  fundValue: string;
  fundDisabled: boolean;
  openOtc: boolean;
  openContract: boolean;
  openGtFees: boolean;
  frozen: boolean;
  subAccount: boolean;
  childFlag: boolean;
  userType: number;
  showUserVip: boolean;
  vipLevel: number;
  switchFlag: boolean;
  role: "user" | "admin";
}

/** `settings` flags of the user-info answer. */
export interface UserSettingsDto {
  bindEmail: boolean;
  bindPhone: boolean;
  bindGoogle: boolean;
  emailEnable: boolean;
  phoneEnable: boolean;
  googleEnable: boolean;
  /** KYC level flag: 0 none, 1 basic identity, 2 verified. */
  kycLevel: 0 | 1 | 2;
}

export interface UserInfoResponse {
  userInfo: UserInfoDto;
  settings: UserSettingsDto;
  loginName: string;
  userName: string;
}

/** The logged-in user record (docs/product.md §3), built from the user-info answer. */
export interface UserRecord extends UserInfoDto, Omit<UserSettingsDto, "kycLevel"> {
  hasRealValidate: boolean;
  identityLevel: number;
}

/** Email and phone are filled only when the flags say they are bound; hasRealValidate is KYC level 2. */
export function toUserRecord(res: UserInfoResponse): UserRecord {
  const { userInfo: u, settings: s } = res;
  return {
    ...u,
    loginName: res.loginName,
    userName: res.userName,
    email: s.bindEmail ? u.email : "",
    phone: s.bindPhone ? u.phone : "",
    mobile: s.bindPhone ? u.mobile : "",
    bindEmail: s.bindEmail,
    bindPhone: s.bindPhone,
    bindGoogle: s.bindGoogle,
    emailEnable: s.emailEnable,
    phoneEnable: s.phoneEnable,
    googleEnable: s.googleEnable,
    identityLevel: s.kycLevel,
    hasRealValidate: s.kycLevel === 2,
  };
}

import type { UserInfoResponse } from "@meridian/contracts";
import type { UserRow } from "./repo.ts";

/** `*` for all but the first character of each name part: what `starRealName` shows. */
function star(name: string): string {
  return name
    .split(" ")
    .map((part) => (part.length <= 1 ? part : `${part[0]}${"*".repeat(part.length - 1)}`))
    .join(" ");
}

/** The user-info answer (docs/product.md §3): userInfo, settings flags, loginName and userName. */
export function presentUserInfo(u: UserRow): UserInfoResponse {
  const loginName = u.email ?? u.phone_key ?? u.id;
  const realName = [u.given_name, u.family_name].filter((s) => s.length > 0).join(" ");
  const kycLevel = u.kyc_level >= 2 ? 2 : u.kyc_level === 1 ? 1 : 0;
  return {
    userInfo: {
      userId: u.id,
      loginName,
      userName: u.nick_name || loginName,
      nickName: u.nick_name,
      email: u.email ?? "",
      phone: u.phone_key ?? "",
      mobile: u.mobile ?? "",
      areaCode: u.area_code ?? "",
      createdDate: Number(u.created_at),
      updatedDate: Number(u.updated_at),
      familyName: u.family_name,
      givenName: u.given_name,
      realName,
      starRealName: star(realName),
      antiPhishingCode: u.anti_phishing_code,
      isFund: u.is_fund === 1,
      fundValue: "0",
      fundDisabled: u.fund_disabled === 1,
      openOtc: u.open_otc === 1,
      openContract: u.open_contract === 1,
      openGtFees: u.open_gt_fees === 1,
      frozen: u.frozen === 1,
      subAccount: u.parent_id !== null,
      childFlag: u.parent_id !== null,
      userType: u.user_type,
      showUserVip: u.vip_level > 0,
      vipLevel: u.vip_level,
      switchFlag: u.switch_flag === 1,
      role: u.role === "admin" ? "admin" : "user",
    },
    settings: {
      bindEmail: u.email !== null,
      bindPhone: u.phone_key !== null,
      bindGoogle: u.google_secret_enc !== null,
      emailEnable: u.email_enable === 1,
      phoneEnable: u.phone_enable === 1,
      googleEnable: u.google_enable === 1,
      kycLevel,
    },
    loginName,
    userName: u.nick_name || loginName,
  };
}

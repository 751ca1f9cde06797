import type { MetaDescriptor } from "react-router";
import type { I18nPayload } from "../../i18n/i18n.ts";

export type AccountMetaKey =
  | "login"
  | "register"
  | "overview"
  | "security"
  | "identity"
  | "antiPhishing"
  | "devices"
  | "history"
  | "api"
  | "verification"
  | "reset"
  | "qrLogin"
  | "thirdLogin";

/** `<title>` from the loader's `account` bundle (meta runs outside React, so no hook). */
export function accountMeta(
  data: { i18n: I18nPayload } | undefined,
  key: AccountMetaKey,
  options: { index?: boolean } = {},
): MetaDescriptor[] {
  const meta = data?.i18n.bundles.account?.meta as Partial<Record<AccountMetaKey, string>> | undefined;
  const tags: MetaDescriptor[] = [{ title: `${meta?.[key] ?? key} | Meridian` }];
  if (!options.index) tags.push({ name: "robots", content: "noindex" });
  return tags;
}

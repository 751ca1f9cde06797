import type { UserInfoResponse, VipDetail } from "@meridian/contracts";
import { isSuccessCode } from "@meridian/contracts";
import type { RouterContextProvider } from "react-router";
import { localeFromParams } from "../../i18n/locale-routing.ts";
import { loadI18n } from "../../i18n/resources.server.ts";
import { readServerContext } from "../../lib/server-context.server.ts";

/** The logged-in visitor's VIP level from user info (in-process), or null for visitors. */
export async function loadVipLevel(
  context: Readonly<RouterContextProvider> | undefined,
): Promise<number | null> {
  const server = readServerContext(context);
  if (!server) return null;
  try {
    const answer = await server.api<UserInfoResponse | null>("/v1/user/overview/userinfo", {
      method: "POST",
      body: {},
    });
    const level = answer.data?.userInfo?.vipLevel;
    return isSuccessCode(answer.code) && typeof level === "number" ? level : null;
  } catch {
    return null;
  }
}

/** The logged-in visitor's VIP standing (`/v1/vip/detail`, in-process), or null. */
export async function loadVipDetail(
  context: Readonly<RouterContextProvider> | undefined,
): Promise<VipDetail | null> {
  const server = readServerContext(context);
  if (!server) return null;
  try {
    const answer = await server.api<VipDetail | null>("/v1/vip/detail", { method: "GET" });
    return isSuccessCode(answer.code) ? answer.data : null;
  } catch {
    return null;
  }
}

type FeesMetaKey = "fee" | "intro" | "detail";

/**
 * Loader data shared by /fee, /vip/vipIntroduce and /vip/detail: the locale, the `fees`
 * translations, the visitor's VIP level and the page's title and description.
 */
export async function loadFeesPage(
  params: { lang?: string },
  context: Readonly<RouterContextProvider> | undefined,
  metaKey: FeesMetaKey,
) {
  const locale = localeFromParams(params);
  const i18n = loadI18n(locale, ["fees"]);
  const meta = (i18n.bundles.fees as { meta?: Record<string, { title?: string; description?: string }> })
    .meta?.[metaKey];
  const level = await loadVipLevel(context);
  return {
    locale,
    i18n,
    level,
    // only /vip/detail shows the figures; the other pages need the level alone
    vip: metaKey === "detail" && level !== null ? await loadVipDetail(context) : null,
    title: meta?.title ?? "Meridian",
    description: meta?.description ?? "",
  };
}

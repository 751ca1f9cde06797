import { REFRESH_COOKIE, SESSION_COOKIE } from "@meridian/contracts";
import { readCookie } from "../../lib/cookies.ts";
import type { ServerContext } from "../../server-context.ts";
import type { ShellUser } from "./types.ts";

interface UserInfoAnswer {
  userInfo?: {
    userId?: unknown;
    nickName?: unknown;
    userName?: unknown;
    loginName?: unknown;
    subAccount?: unknown;
  } | null;
  userName?: unknown;
  loginName?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

/**
 * The logged-in visitor for the header (docs/product.md §4, session): the user-info call,
 * answered in-process. Anonymous visitors, missing endpoints and errors all mean no user.
 * Without a session or refresh cookie there is nobody to look up, so no call is made:
 * most page views are anonymous and this keeps the render free of it.
 */
export async function loadShellUser(
  server: ServerContext | undefined,
  locale: string,
  cookieHeader: string | null = null,
): Promise<ShellUser | undefined> {
  if (!server) return undefined;
  if (!readCookie(cookieHeader, SESSION_COOKIE) && !readCookie(cookieHeader, REFRESH_COOKIE))
    return undefined;
  try {
    const answer = await server.api<UserInfoAnswer | null>("/v1/user/overview/userinfo", {
      method: "POST",
      body: { locale },
    });
    if (answer.code !== "00000" && answer.code !== "200") return undefined;
    const info = answer.data?.userInfo;
    const userId = info?.userId;
    if (typeof userId !== "string" && typeof userId !== "number") return undefined;
    return {
      userId: String(userId),
      nickName: str(info?.nickName),
      userName: str(info?.userName) ?? str(answer.data?.userName),
      loginName: str(info?.loginName) ?? str(answer.data?.loginName),
      ...(info?.subAccount === true ? { subAccount: true } : {}),
    };
  } catch {
    return undefined;
  }
}

import type { UserInfoResponse } from "@meridian/contracts";
import { isSuccessCode } from "@meridian/contracts";
import type { RouterContextProvider } from "react-router";
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

import { AIRDROPS_API, Code } from "@meridian/contracts";
import type { ServerContext } from "../../server-context.ts";
import type { AdminData } from "./admin-page.tsx";

/** The admin tables, or the HTTP status to answer when the visitor is not an administrator. */
export async function loadAdmin(
  server: ServerContext,
): Promise<{ admin: AdminData } | { status: 401 | 403 }> {
  const answer = await server.api<AdminData>(AIRDROPS_API.adminAirdrops);
  if (answer.code === Code.OK) return { admin: answer.data };
  return { status: answer.code === Code.FORBIDDEN ? 403 : 401 };
}

import { Code } from "@meridian/contracts";
import type { ServerContext } from "../../server-context.ts";

export type AdminRead<T> =
  | { kind: "ok"; data: T }
  | { kind: "refused"; status: 401 | 403 }
  | { kind: "invalid"; msg: string };

/** One admin API read: the data, the status for a non-administrator, or a bad filter's message. */
export async function adminRead<T>(server: ServerContext, path: string): Promise<AdminRead<T>> {
  const answer = await server.api<T>(path);
  if (answer.code === Code.OK) return { kind: "ok", data: answer.data };
  if (answer.code === Code.VALIDATION_FAILED) return { kind: "invalid", msg: answer.msg };
  if (answer.code === Code.FORBIDDEN) return { kind: "refused", status: 403 };
  if (
    answer.code === Code.SESSION_INVALID ||
    answer.code === Code.SESSION_KICKED ||
    answer.code === Code.UNAUTHENTICATED
  )
    return { kind: "refused", status: 401 };
  throw new Error(`${path}: ${answer.code} ${answer.msg}`);
}

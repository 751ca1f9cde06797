import { isApiError } from "@meridian/client";
import { Code } from "@meridian/contracts";
import { api, apiName } from "../account/api-call.ts";

/** What a same-origin JSON POST to the API came back with. */
export interface PostAnswer<T> {
  ok: boolean;
  status: number;
  code: string;
  data: T | null;
}

/** POSTs JSON through the API client; never throws (network failures read as status 0). */
export async function postJson<T>(path: string, body: unknown): Promise<PostAnswer<T>> {
  try {
    const data = await api().post<T>(apiName(path), body, { silent: true });
    return { ok: true, status: 200, code: Code.OK, data };
  } catch (error) {
    if (!isApiError(error)) return { ok: false, status: 0, code: "", data: null };
    return { ok: false, status: error.httpStatus, code: error.code, data: null };
  }
}

/** What a same-origin JSON POST to the API came back with. */
export interface PostAnswer<T> {
  ok: boolean;
  status: number;
  code: string;
  data: T | null;
}

/**
 * POSTs JSON through the API client; never throws (network failures read as status 0).
 *
 * The client (and with it zod and the contract schemas) loads on the first call: the
 * pages that post here (a rating, a submission) paint and hydrate without it.
 */
export async function postJson<T>(path: string, body: unknown): Promise<PostAnswer<T>> {
  const offline: PostAnswer<T> = { ok: false, status: 0, code: "", data: null };
  const modules = await Promise.all([
    import("../../api/api-call.ts"),
    import("@meridian/client"),
    // The codes alone: the package index would bring every contract schema (and zod).
    import("@meridian/contracts/codes"),
  ]).catch(() => undefined);
  if (!modules) return offline;
  const [{ api, apiName }, { isApiError }, { Code }] = modules;
  try {
    const data = await api().post<T>(apiName(path), body, { silent: true });
    return { ok: true, status: 200, code: Code.OK, data };
  } catch (error) {
    if (!isApiError(error)) return offline;
    return { ok: false, status: error.httpStatus, code: error.code, data: null };
  }
}

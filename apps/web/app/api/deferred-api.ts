import type { ApiClient } from "@meridian/client";

let loading: Promise<ApiClient> | undefined;

/**
 * The account client's API, its module loaded on the first call (shared by every later
 * one). A failed load (a chunk gone after a deploy, a network error) is not kept: the
 * next call tries again.
 */
const loaded = (): Promise<ApiClient> =>
  (loading ??= import("./account-client.ts").then(
    (m) => m.accountClient().api,
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  ));

/**
 * The account client's API for pages that must not load it with their own code: the
 * trading pages call it only after they render, and a static import brought the API
 * client, its signing set-up and zod (with the schemas it builds) into their first load
 * and its evaluation into the hydration task. Each call waits for the module (the root
 * starts loading it after hydration for the session anyway), then is the same call.
 */
export const deferredApi: ApiClient = {
  get: (api, query, options) => loaded().then((c) => c.get(api, query, options)),
  post: (api, body, options) => loaded().then((c) => c.post(api, body, options)),
  put: (api, body, options) => loaded().then((c) => c.put(api, body, options)),
  delete: (api, query, options) => loaded().then((c) => c.delete(api, query, options)),
  download: (api, query, options) => loaded().then((c) => c.download(api, query, options)),
  request: (method, api, payload, options) => loaded().then((c) => c.request(method, api, payload, options)),
};

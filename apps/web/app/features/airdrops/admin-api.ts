import { AIRDROPS_API } from "@meridian/contracts/airdrop-rules";

/** Browser calls to the admin API (cookie session; the server checks the admin role and the Origin). */
export async function adminCall<T>(path: string, method: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: body === undefined ? {} : { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as { code: string; msg: string; data: T };
  if (answer.code !== "00000") throw new Error(answer.msg || answer.code);
  return answer.data;
}

export const adminPaths = {
  airdrops: AIRDROPS_API.adminAirdrops,
  airdrop: (slug: string) => `${AIRDROPS_API.adminAirdrops}/${encodeURIComponent(slug)}`,
  update: (id: number) => `${AIRDROPS_API.adminAirdrops}/${id}`,
  publish: (id: number) => `${AIRDROPS_API.adminAirdrops}/${id}/publish`,
  news: AIRDROPS_API.adminNews,
  newsUpdate: (id: number) => `${AIRDROPS_API.adminNews}/${id}`,
  newsPublish: (id: number) => `${AIRDROPS_API.adminNews}/${id}/publish`,
};

/** `datetime-local` input value (UTC) <-> epoch ms. */
export const toInputTime = (ms: number | null | undefined) =>
  ms === null || ms === undefined ? "" : new Date(ms).toISOString().slice(0, 16);
export const fromInputTime = (text: string | undefined) => (text ? Date.parse(`${text}:00Z`) : null);

import { AIRDROPS_API } from "@meridian/contracts/airdrop-rules";

export { adminCall } from "../../api/api-call.ts";

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

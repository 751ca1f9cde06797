/**
 * The zod-free part of the airdrop contract: enums, API paths and the status rules.
 * Browser code imports this module (`@meridian/contracts/airdrop-rules`) so page
 * bundles never carry zod, whose JIT probe trips the CSP (no eval).
 */

export const AIRDROP_TYPES = ["standard", "bounty", "holder", "exclusive"] as const;
export type AirdropType = (typeof AIRDROP_TYPES)[number];

export const AIRDROP_REQUIREMENTS = ["kyc", "deposit", "trading_volume", "social_tasks", "free"] as const;
export type AirdropRequirement = (typeof AIRDROP_REQUIREMENTS)[number];

/** Derived from the dates, never stored: see `airdropStatus`. */
export const AIRDROP_STATUSES = ["upcoming", "active", "closed"] as const;
export type AirdropStatus = (typeof AIRDROP_STATUSES)[number];

/** Columns of the All airdrops table the list can sort by. */
export const AIRDROP_SORT_FIELDS = [
  "name",
  "ticker",
  "chain",
  "status",
  "estValue",
  "currentPrice",
  "listingAt",
  "startAt",
  "endAt",
  "claimAt",
] as const;
export type AirdropSortField = (typeof AIRDROP_SORT_FIELDS)[number];

export const AIRDROP_PAGE_SIZES = [10, 20, 50] as const;
export const AIRDROP_DEFAULT_PAGE_SIZE = 20;

/**
 * Status from the dates at `now` (all UTC epoch ms): upcoming before the start instant,
 * active from the start instant up to (not including) the end instant, closed from the
 * end instant on.
 */
export function airdropStatus(startAt: number, endAt: number, now: number): AirdropStatus {
  if (now < startAt) return "upcoming";
  if (now < endAt) return "active";
  return "closed";
}

/**
 * Whole days left until `endAt`: the days a countdown shows (26 days 13 hours left is 26),
 * so the key facts' "days left" and the countdown beside them always agree; 0 in the last
 * day and after the end instant.
 */
export function daysLeft(endAt: number, now: number): number {
  return countdownParts(endAt - now).days;
}

/**
 * Claims are open from the claim time on (which is never before the end: the campaign
 * first closes, then tokens are claimed; content-invariants.test.ts), so the Claim action
 * follows the claim time, not the campaign's status.
 */
export function claimOpen(claimAt: number | null, now: number): boolean {
  return claimAt !== null && now >= claimAt;
}

/** Splits a duration into the parts a countdown shows. Negative durations count as 0. */
export function countdownParts(ms: number): {
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
} {
  const total = Math.max(0, Math.floor(ms / 1000));
  return {
    days: Math.floor(total / 86_400),
    hours: Math.floor((total % 86_400) / 3600),
    minutes: Math.floor((total % 3600) / 60),
    seconds: total % 60,
  };
}

// ---------------------------------------------------------------------------------------
// API paths

export const AIRDROPS_API = {
  list: "/v1/content/airdrops/list",
  home: "/v1/content/airdrops/home",
  news: "/v1/content/airdrops/news",
  /** `/v1/content/airdrops/news/<slug>`: one published news item with its body. */
  newsDetail: "/v1/content/airdrops/news/",
  /** `/v1/content/airdrops/detail/<slug>` */
  detail: "/v1/content/airdrops/detail/",
  /** Every published slug with its last change, for sitemaps and feeds. */
  index: "/v1/content/airdrops/index",
  adminAirdrops: "/v1/admin/airdrops",
  adminNews: "/v1/admin/airdrop-news",
} as const;

/** docs/product.md §7: page title/description/keywords (TDK) per page key and locale. */
export const PAGE_META_PATH = "/v1/mix/public/getTdkMltQueryList";

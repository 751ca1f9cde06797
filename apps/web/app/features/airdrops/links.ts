import type { AirdropRequirement, AirdropSortField, AirdropStatus, AirdropType } from "@meridian/contracts";
import {
  AIRDROP_DEFAULT_PAGE_SIZE,
  AIRDROP_REQUIREMENTS,
  AIRDROP_SORT_FIELDS,
  AIRDROP_STATUSES,
  AIRDROP_TYPES,
} from "@meridian/contracts/airdrop-rules";
import { localizePath } from "@meridian/contracts/locales";

/** The All airdrops view as kept in the URL query: every control is a plain link. */
export interface ListState {
  page: number;
  pageSize: number;
  sort?: AirdropSortField | undefined;
  order?: "asc" | "desc" | undefined;
  status?: AirdropStatus | undefined;
  type?: AirdropType | undefined;
  requirement?: AirdropRequirement | undefined;
  chain?: string | undefined;
  q?: string | undefined;
}

const oneOf = <T extends string>(values: readonly T[], v: string | null): T | undefined =>
  v !== null && (values as readonly string[]).includes(v) ? (v as T) : undefined;

/** Reads the list state from a URL query; unknown values are dropped rather than failing. */
export function readListState(params: URLSearchParams): ListState {
  const page = Number.parseInt(params.get("page") ?? "1", 10);
  const size = Number.parseInt(params.get("pageSize") ?? "", 10);
  const q = params.get("q")?.trim().slice(0, 60);
  const chain = params.get("chain")?.trim().slice(0, 40);
  return {
    page: Number.isFinite(page) && page >= 1 && page <= 10_000 ? page : 1,
    pageSize: [10, 20, 50].includes(size) ? size : AIRDROP_DEFAULT_PAGE_SIZE,
    sort: oneOf(AIRDROP_SORT_FIELDS, params.get("sort")),
    order: oneOf(["asc", "desc"] as const, params.get("order")),
    status: oneOf(AIRDROP_STATUSES, params.get("status")),
    type: oneOf(AIRDROP_TYPES, params.get("type")),
    requirement: oneOf(AIRDROP_REQUIREMENTS, params.get("requirement")),
    chain: chain || undefined,
    q: q || undefined,
  };
}

/** The query string for a state (defaults left out so URLs stay short and canonical). */
export function listQuery(state: ListState): string {
  const params = new URLSearchParams();
  if (state.q) params.set("q", state.q);
  if (state.status) params.set("status", state.status);
  if (state.type) params.set("type", state.type);
  if (state.requirement) params.set("requirement", state.requirement);
  if (state.chain) params.set("chain", state.chain);
  if (state.sort) params.set("sort", state.sort);
  if (state.sort && state.order) params.set("order", state.order);
  if (state.pageSize !== AIRDROP_DEFAULT_PAGE_SIZE) params.set("pageSize", String(state.pageSize));
  if (state.page > 1) params.set("page", String(state.page));
  const text = params.toString();
  return text ? `?${text}` : "";
}

/** Link to the list with some controls changed; any filter change goes back to page 1. */
export function listHref(locale: string, state: ListState, change: Partial<ListState>): string {
  const next: ListState = { ...state, page: 1, ...change };
  return `${localizePath(locale, "/airdrops/list")}${listQuery(next)}`;
}

/** The Atom feed of new and ending-soon airdrops, in the locale's language (routes/feed-airdrops.tsx). */
export const feedHref = (locale: string) => localizePath(locale, "/airdrops/feed.xml");
export const newsHref = (locale: string, slug: string) => localizePath(locale, `/airdrops/news/${slug}`);
export const detailHref = (locale: string, slug: string) => localizePath(locale, `/airdrops/${slug}`);
export const spotHref = (locale: string, symbol: string) =>
  localizePath(locale, `/spot/${symbol || "BTCUSDT"}`);

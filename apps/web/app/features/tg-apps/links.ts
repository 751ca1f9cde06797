import type { TgAppTab } from "@meridian/contracts";
import { localizePath } from "@meridian/contracts/locales";

export interface ListState {
  tab: TgAppTab;
  q: string;
  page: number;
}

/** `/telegram-apps?tab=games&q=cat&page=2`, defaults left out so every state has one URL. */
export function listHref(locale: string, state: Partial<ListState> = {}): string {
  const params = new URLSearchParams();
  if (state.tab && state.tab !== "all") params.set("tab", state.tab);
  if (state.q) params.set("q", state.q);
  if (state.page && state.page > 1) params.set("page", String(state.page));
  const query = params.toString();
  return `${localizePath(locale, "/telegram-apps")}${query ? `?${query}` : ""}`;
}

export const detailPath = (slug: string) => `/telegram-apps/${slug}`;
export const articlesPath = (slug: string) => `/telegram-apps/${slug}/articles`;
export const detailHref = (locale: string, slug: string) => localizePath(locale, detailPath(slug));
export const articlesHref = (locale: string, slug: string) => localizePath(locale, articlesPath(slug));
export const articleAnchor = (slug: string) => `article-${slug}`;

/** The login page, coming back to `returnTo` (a path on this site) afterwards. */
export function loginHref(locale: string, returnTo: string): string {
  return `${localizePath(locale, "/login")}?redirect=${encodeURIComponent(returnTo)}`;
}

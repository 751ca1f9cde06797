import { TG_APPS_API, tgAppsPath } from "@meridian/contracts";

export type { TgAdminAppRow as AdminAppRow, TgAdminArticleRow as AdminArticleRow } from "@meridian/contracts";
export { adminCall } from "../../../api/api-call.ts";

export const adminPaths = {
  apps: TG_APPS_API.adminApps,
  app: (slug: string) => tgAppsPath(TG_APPS_API.adminApp, { slug }),
  articles: TG_APPS_API.adminArticles,
  article: (slug: string) => tgAppsPath(TG_APPS_API.adminArticle, { slug }),
  submissions: TG_APPS_API.adminSubmissions,
  submission: (id: number) => tgAppsPath(TG_APPS_API.adminSubmission, { id }),
};

/** `datetime-local` input value (UTC) <-> epoch ms. */
export const toInputTime = (ms: number) => new Date(ms).toISOString().slice(0, 16);
export const fromInputTime = (text: string | undefined) => (text ? Date.parse(`${text}:00Z`) : Date.now());

/** `2026-11-22 05:44` in UTC: administrators compare times across time zones. */
export const formatUtc = (ms: number) => new Date(ms).toISOString().slice(0, 16).replace("T", " ");

/**
 * Tables page by 20 without antd's page-size Select: that Select's input id differs
 * between the server render and the browser, which breaks hydration.
 */
export const TABLE_PAGINATION = { pageSize: 20, showSizeChanger: false } as const;

import { TG_APPS_API, tgAppsPath } from "@meridian/contracts";

/** An app row of the admin list (`GET /v1/admin/tg-apps/apps`). */
export interface AdminAppRow {
  slug: string;
  name: string;
  category: number;
  published: boolean;
  ratingCount: number;
  updatedAt: number;
  /** Languages the app is written in, "en" first. */
  contentLanguages: string[];
}

/** An article row of the admin list (`GET /v1/admin/tg-apps/articles`). */
export interface AdminArticleRow {
  slug: string;
  appSlug: string;
  title: string;
  published: boolean;
  publishedAt: number;
}

/** Browser calls to the admin API (cookie session; the server checks the admin role and the Origin). */
export async function adminCall<T>(
  path: string,
  method: "GET" | "POST" | "DELETE",
  body?: unknown,
): Promise<T> {
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

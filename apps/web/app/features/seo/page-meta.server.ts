import { getLocale, PAGE_META_PATH, type PageMetaResult } from "@meridian/contracts";
import type { ServerContext } from "../../server-context.ts";
import { fillTemplate } from "./seo.ts";

export interface PageText {
  title: string;
  description: string;
  keywords: string;
}

/**
 * Title, description and keywords for a page key: the `page_meta` row for the request's
 * language when an editor wrote one, else the translated defaults the page passes
 * (its i18n namespace), else the English row. `{placeholders}` are filled from `vars`.
 */
export async function resolvePageText(
  server: ServerContext,
  locale: string,
  pageKey: string,
  defaults: PageText,
  vars: Record<string, string> = {},
): Promise<PageText> {
  const content = getLocale(locale).content;
  let row: PageMetaResult["list"][number] | undefined;
  try {
    const answer = await server.api<PageMetaResult>(PAGE_META_PATH, {
      body: { locale, pageKeys: [pageKey] },
    });
    row = answer.data?.list?.[0];
  } catch {
    row = undefined;
  }
  const useRow = row !== undefined && (row.locale === content || content === "en");
  const pick = useRow && row ? row : defaults;
  return {
    title: fillTemplate(pick.title, vars),
    description: fillTemplate(pick.description, vars),
    keywords: fillTemplate(pick.keywords, vars),
  };
}

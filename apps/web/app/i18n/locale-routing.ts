import {
  CONTENT_PATH_PREFIXES,
  DEFAULT_LOCALE,
  findLocale,
  getLocale,
  isContentPath,
  LOCALE_ALIASES,
  localizePath,
  resolveLocale,
} from "@meridian/contracts/locales";
import { sameOriginPath } from "@meridian/contracts/same-origin-path";

/** What to do with a request given its optional `:lang?` segment. */
export type LocaleDecision =
  | { kind: "render"; locale: string }
  | { kind: "redirect"; to: string; status: 301 | 302 }
  | { kind: "not-found" };

export interface LocaleRequest {
  url: URL;
  /** The `:lang?` route param as written, if the path has one. */
  lang: string | undefined;
  cookie?: string | null | undefined;
  acceptLanguage?: string | null | undefined;
}

/**
 * The URL decides the language, so pages cache and index per locale:
 * - a supported prefix (or bg) renders; one written in another case, or a regional alias
 *   such as `fr-FR`, is sent permanently to its canonical prefix;
 * - any other first segment is not a page: 404;
 * - a content-only prefix (nl, sv, th, tr) on another page than a content page is sent
 *   to the English page, the bare prefix to its airdrop home;
 * - no prefix renders English unless `?locale=`, the locale cookie or Accept-Language
 *   pick another locale, in which case the visitor is sent to that prefix.
 */
export function decideLocale({ url, lang, cookie, acceptLanguage }: LocaleRequest): LocaleDecision {
  const rest = `${url.pathname}${url.search}`;
  if (lang !== undefined) {
    const exact = findLocale(lang);
    const canonical = exact?.code ?? LOCALE_ALIASES[lang.toLowerCase()];
    if (!canonical) return { kind: "not-found" };
    // Content-only languages (nl, sv, th, tr) serve the content pages and nothing else:
    // their bare prefix is their airdrop home, any other page is the English one.
    const restPath = url.pathname.slice(lang.length + 1) || "/";
    if (findLocale(canonical)?.contentOnly && !isContentPath(restPath)) {
      const to = restPath === "/" ? `/${canonical}${CONTENT_PATH_PREFIXES[0]}${url.search}` : rest;
      return { kind: "redirect", to: sameOriginPath(localizePath(canonical, to)), status: 302 };
    }
    if (canonical === lang) return { kind: "render", locale: canonical };
    return { kind: "redirect", to: sameOriginPath(localizePathRaw(canonical, rest, lang)), status: 301 };
  }
  const { locale, source } = resolveLocale({
    pathname: url.pathname,
    query: url.searchParams.get("locale"),
    cookie,
    acceptLanguage,
  });
  if (source === "default" || locale === DEFAULT_LOCALE) return { kind: "render", locale: DEFAULT_LOCALE };
  if (findLocale(locale)?.contentOnly && !isContentPath(url.pathname))
    return { kind: "render", locale: DEFAULT_LOCALE };
  return { kind: "redirect", to: sameOriginPath(localizePath(locale, rest)), status: 302 };
}

/** Replaces a first segment that is not a canonical code (e.g. `fr-FR`) with a locale's prefix. */
function localizePathRaw(locale: string, pathWithQuery: string, written: string): string {
  const withoutWritten = pathWithQuery.slice(written.length + 1) || "/";
  return localizePath(locale, withoutWritten.startsWith("/") ? withoutWritten : `/${withoutWritten}`);
}

/** The locale a route renders in, from its `:lang?` param (after the layout's checks). */
export function localeFromParams(params: { lang?: string | undefined }): string {
  return getLocale(params.lang).code;
}

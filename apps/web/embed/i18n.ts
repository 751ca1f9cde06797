import { getLocale } from "@meridian/contracts/locales";
import type { i18n as I18n } from "i18next";
import { createI18n } from "../app/i18n/i18n.ts";
import { loadLocaleModules } from "../app/i18n/locale-modules.ts";

type Json = Record<string, unknown>;

// NOTE: one chunk per translation set, fetched only for the locale in use (and English,
// which fills gaps). Bundling every set would add about 20 KB gzip to each page that
// embeds the shell for text most visitors never see; see README "Embeddable shell".
const shellResources = import.meta.glob<Json>("../app/i18n/resources/*/shell.json", { import: "default" });

function loaderFor(content: string): (() => Promise<Json>) | undefined {
  return shellResources[`../app/i18n/resources/${content}/shell.json`];
}

function isObject(v: unknown): v is Json {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function deepMerge(base: Json, over: Json): Json {
  const out: Json = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const prev = out[k];
    out[k] = isObject(prev) && isObject(v) ? deepMerge(prev, v) : v;
  }
  return out;
}

const instances = new Map<string, Promise<I18n>>();

/**
 * An i18next instance with the shell namespace for a locale: English, then the base
 * language, then the locale's own set (the same chain the server merges), plus the
 * Ant Design locale data. Cached per locale, so switching back is instant.
 */
export function loadShellI18n(code: string): Promise<I18n> {
  const entry = getLocale(code);
  const cached = instances.get(entry.code);
  if (cached) return cached;
  const chain = [...new Set(["en", entry.content, entry.code])];
  const loading = Promise.all([
    Promise.all(chain.map((content) => loaderFor(content)?.() ?? Promise.resolve({}))),
    loadLocaleModules(entry.code),
  ]).then(([sets]) => {
    const shell = sets.reduce<Json>((merged, set) => deepMerge(merged, set), {});
    return createI18n({ lng: entry.htmlLang, bundles: { shell } });
  });
  instances.set(entry.code, loading);
  // A failed fetch (network blip) must not stick: the next attempt loads again.
  loading.catch(() => instances.delete(entry.code));
  return loading;
}

/** Locale codes with their own shell translations (for the size figures and tests). */
export function shellTranslationSets(): string[] {
  return Object.keys(shellResources)
    .map((file) => /resources\/([^/]+)\/shell\.json$/.exec(file)?.[1])
    .filter((code): code is string => code !== undefined);
}

import { getLocale } from "@meridian/contracts/locales";
import type { Bundles, I18nPayload } from "./i18n.ts";

type Json = Record<string, unknown>;

// NOTE: resources live in ./resources/<content>/<namespace>.json where <content> is a
// locale code with its own translations (en is the source). Regional locales without a
// folder use their base language's (LocaleEntry.content), and English fills any gap.
const files = import.meta.glob<Json>("./resources/*/*.json", { eager: true, import: "default" });

const table = new Map<string, Json>();
for (const [file, json] of Object.entries(files)) {
  const m = /\.\/resources\/([^/]+)\/([^/]+)\.json$/.exec(file);
  if (m) table.set(`${m[1]}/${m[2]}`, json);
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

/** Folders consulted for a locale, weakest first: en, the base language, the locale itself. */
export function resourceChain(code: string): string[] {
  const entry = getLocale(code);
  return [...new Set(["en", entry.content, entry.code])];
}

// The resources never change while the process runs, so each (locale, namespaces) pair is
// merged once. NOTE: callers share the payload; createI18n copies before i18next adds to it.
const merged = new Map<string, I18nPayload>();

/** Resources of the given namespaces for a locale, fallbacks merged in (memoised, shared: do not mutate). */
export function loadI18n(code: string, namespaces: readonly string[]): I18nPayload {
  const key = `${code}\n${namespaces.join(",")}`;
  let payload = merged.get(key);
  if (payload === undefined) {
    payload = mergeI18n(code, namespaces);
    // Unknown codes fall back to English: keyed by what callers pass, so bound the table.
    if (merged.size < 2000) merged.set(key, payload);
  }
  return payload;
}

function mergeI18n(code: string, namespaces: readonly string[]): I18nPayload {
  const entry = getLocale(code);
  const bundles: Bundles = {};
  for (const ns of namespaces) {
    let merged: Json = {};
    for (const folder of resourceChain(entry.code)) {
      const res = table.get(`${folder}/${ns}`);
      if (res) merged = deepMerge(merged, res);
    }
    bundles[ns] = merged;
  }
  return { lng: entry.htmlLang, bundles };
}

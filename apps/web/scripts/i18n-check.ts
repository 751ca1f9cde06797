/**
 * Translation coverage: for every locale of the table, which keys of the English source
 * (app/i18n/resources/en/<namespace>.json) its resources do not provide, and which
 * translations drop a placeholder ({{name}} for i18next, ${label} for antd forms).
 *
 *   npm run i18n:check
 *
 * A locale reads its own folder, then its base language's (LocaleEntry.content); English
 * fills the rest at runtime, so a gap shows English, not a key. Gaps in REQUIRED
 * namespaces fail the check (exit 1); other namespaces are reported only. A string
 * that breaks the language's glossary (GLOSSARY of @meridian/contracts) fails it too.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { GLOSSARY } from "@meridian/contracts";
import { LOCALES } from "@meridian/contracts/locales";

/** Namespaces every locale must translate in full. A feature adds its own when it ships. */
export const REQUIRED_NAMESPACES = [
  "shell",
  "form",
  "home",
  "account",
  "analytics",
  "trade",
  "fees",
  "assets",
  "airdrops",
  "seo",
  "futures",
  "margin",
  "adminTools",
  "tgAppsAdmin",
  "airdropsAdmin",
  "subaccounts",
  "pages",
  "apiKeys",
];

/**
 * Content-only locales (nl, sv, th, tr) serve the content pages only: they must translate
 * these namespaces, administration keys aside. Swedish falls back to English for
 * untranslated strings (docs/product.md §9), so its gaps are reported, never fatal.
 */
export const CONTENT_ONLY_NAMESPACES = ["shell", "airdrops", "seo", "tgApps"];
const ENGLISH_FALLBACK = new Set(["sv"]);

const resourcesDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../app/i18n/resources");

type Json = { [key: string]: unknown };

function flatten(value: unknown, prefix = "", out = new Map<string, string>()): Map<string, string> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Json)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (typeof value === "string") {
    out.set(prefix, value);
  }
  return out;
}

function read(folder: string, ns: string): Map<string, string> {
  const file = path.join(resourcesDir, folder, `${ns}.json`);
  return existsSync(file) ? flatten(JSON.parse(readFileSync(file, "utf8"))) : new Map();
}

const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}|\$\{(\w+)\}/g;
const placeholders = (text: string) =>
  new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? m[2] ?? "").filter(Boolean));

const PLURAL = /_(zero|one|two|few|many|other)$/;

/**
 * The keys a language must have: the source's, with plural families (`x_one`, `x_other`)
 * replaced by the forms that language uses (ja: `x_other` only; ru: one, few, many, other).
 */
function expectedKeys(source: Map<string, string>, lang: string): string[] {
  const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
  const out = new Set<string>();
  for (const key of source.keys()) {
    if (PLURAL.test(key)) for (const c of categories) out.add(key.replace(PLURAL, `_${c}`));
    else out.add(key);
  }
  return [...out];
}

function listKeys(keys: string[], total: number): string {
  if (keys.length >= total) return "not translated";
  const max = 12;
  return keys.length > max
    ? `${keys.slice(0, max).join(", ")} and ${keys.length - max} more`
    : keys.join(", ");
}

const namespaces = readdirSync(path.join(resourcesDir, "en"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => f.slice(0, -5))
  .sort();

let failed = false;
for (const locale of LOCALES) {
  // English-content locales (asia, en-GB, en-CA, bg) read the source itself; folders overlay it.
  const chain = [...new Set([locale.content, locale.code])];
  const lines: string[] = [];
  for (const ns of namespaces) {
    const source = read("en", ns);
    if (locale.code === "en") continue;
    const merged = new Map<string, string>();
    for (const folder of chain) for (const [k, v] of read(folder, ns)) merged.set(k, v);
    const missing = expectedKeys(source, locale.htmlLang).filter(
      (k) => !merged.has(k) && !(locale.contentOnly && k.startsWith("admin.")),
    );
    const broken = [...source.entries()]
      .filter(([k, v]) => {
        const t = merged.get(k);
        if (t === undefined) return false;
        const want = placeholders(v);
        const got = placeholders(t);
        return want.size !== got.size || [...want].some((p) => !got.has(p));
      })
      .map(([k]) => k);
    const required = locale.contentOnly
      ? CONTENT_ONLY_NAMESPACES.includes(ns) && !ENGLISH_FALLBACK.has(locale.code)
      : REQUIRED_NAMESPACES.includes(ns);
    if (missing.length) {
      lines.push(
        `  ${required ? "MISSING" : "missing"} ${ns}: ${missing.length} of ${source.size} (${listKeys(missing, source.size)})`,
      );
    }
    if (broken.length) lines.push(`  PLACEHOLDERS ${ns}: ${broken.join(", ")}`);
    if (required && (missing.length || broken.length)) failed = true;
  }
  const via = locale.code === "en" ? "English source" : chain.join(" + ");
  console.log(`${locale.code.padEnd(6)} ${lines.length ? "gaps" : "complete"} (${via})`);
  for (const line of lines) console.log(line);
}

for (const [lang, terms] of Object.entries(GLOSSARY)) {
  for (const ns of namespaces) {
    for (const [key, text] of read(lang, ns)) {
      for (const term of terms) {
        if (!term.avoid.test(text)) continue;
        console.log(`${lang.padEnd(6)} GLOSSARY ${ns}:${key}: "${term.term}" is ${term.use}`);
        failed = true;
      }
    }
  }
}

if (failed) {
  console.error(
    `\ni18n check failed: a locale misses keys of ${REQUIRED_NAMESPACES.join(", ")}, or breaks its glossary`,
  );
  process.exit(1);
}

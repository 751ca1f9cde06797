/**
 * What a first visit to a server-rendered page costs the browser: the JavaScript it
 * loads before hydration and the stylesheets that block first paint, in gzip bytes.
 */
import { gzipSync } from "node:zlib";

export interface Asset {
  url: string;
  rawBytes: number;
  gzipBytes: number;
}

export interface PageWeight {
  js: Asset[];
  css: Asset[];
  jsGzipBytes: number;
  cssGzipBytes: number;
  /** Inline `<style>` in the HTML itself: part of the document, reported for context. */
  inlineStyleBytes: number;
}

interface Tag {
  name: string;
  attrs: Map<string, string>;
  /** Text up to the closing tag, for `<script>` and `<style>` only. */
  body: string;
}

const entities: Record<string, string> = {
  "&amp;": "&",
  "&quot;": '"',
  "&#39;": "'",
  "&lt;": "<",
  "&gt;": ">",
};

function decode(value: string): string {
  return value.replace(/&(amp|quot|#39|lt|gt);/g, (entity) => entities[entity] ?? entity);
}

function parseAttrs(source: string): Map<string, string> {
  const attrs = new Map<string, string>();
  for (const match of source.matchAll(/([^\s"'<>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g)) {
    const name = match[1];
    if (name === undefined) continue;
    attrs.set(name.toLowerCase(), decode(match[2] ?? match[3] ?? match[4] ?? ""));
  }
  return attrs;
}

/** `<script>`, `<link>` and `<style>` tags of an HTML document (enough for React Router's output). */
export function scanTags(html: string): Tag[] {
  const tags: Tag[] = [];
  const pattern = /<(script|link|style)\b([^>]*)>/gi;
  for (let match = pattern.exec(html); match !== null; match = pattern.exec(html)) {
    const name = (match[1] ?? "").toLowerCase();
    let body = "";
    if (name !== "link") {
      const close = html.toLowerCase().indexOf(`</${name}>`, pattern.lastIndex);
      if (close >= 0) {
        body = html.slice(pattern.lastIndex, close);
        pattern.lastIndex = close;
      }
    }
    tags.push({ name, attrs: parseAttrs(match[2] ?? ""), body });
  }
  return tags;
}

/** Module specifiers a module loads eagerly: static imports and re-exports, plus `import("...")` of an inline bootstrap. */
export function eagerImports(code: string, includeDynamic: boolean): string[] {
  const found: string[] = [];
  const staticImport = /(?:^|[;\s{}()])(?:import|export)\s*(?:[\w$*{}\s,]*?\s*from\s*)?["']([^"']+)["']/g;
  for (const match of code.matchAll(staticImport)) if (match[1]) found.push(match[1]);
  if (includeDynamic) {
    for (const match of code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g))
      if (match[1]) found.push(match[1]);
  }
  // A built bundle only imports its own files; anything else is text that looked like an import.
  return found.filter((specifier) => /^(\.{1,2}\/|\/|https?:)/.test(specifier));
}

async function fetchAsset(url: string): Promise<{ asset: Asset; body: Buffer }> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  return { asset: { url, rawBytes: body.length, gzipBytes: gzipSync(body, { level: 9 }).length }, body };
}

/**
 * A module script and a module preload held back until the first paint (the paint-first
 * content and trading pages, the islands bundle of a page without hydration:
 * apps/web/app/features/shell/paint-first.ts): loaded all the same, right after it.
 */
const MODULE_TYPES = new Set(["module", "text/x-module-after-paint"]);
const DEFERRED_PRELOAD_REL = "x-modulepreload-after-paint";

/**
 * Fetches `pageUrl` and every first-load asset: `<script type=module src>`,
 * `<link rel=modulepreload>`, what inline module scripts import (React Router's bootstrap
 * `import("/assets/entry.client-*.js")` runs at once), and the static import graph of all
 * of those; `<link rel=stylesheet>` not limited to print media. Each asset is gzipped at
 * level 9 on its own, as a CDN would serve it.
 */
export async function measurePageWeight(pageUrl: string): Promise<PageWeight> {
  const response = await fetch(pageUrl);
  const html = await response.text();
  if (!response.ok) throw new Error(`GET ${pageUrl} answered ${response.status}`);

  const jsQueue: string[] = [];
  const cssUrls = new Set<string>();
  let inlineStyleBytes = 0;
  for (const tag of scanTags(html)) {
    const rel = (tag.attrs.get("rel") ?? "").toLowerCase().split(/\s+/);
    if (tag.name === "script" && MODULE_TYPES.has(tag.attrs.get("type") ?? "")) {
      const src = tag.attrs.get("src");
      if (src) jsQueue.push(new URL(src, pageUrl).href);
      else
        for (const specifier of eagerImports(tag.body, true)) jsQueue.push(new URL(specifier, pageUrl).href);
    } else if (tag.name === "link" && (rel.includes("modulepreload") || rel.includes(DEFERRED_PRELOAD_REL))) {
      const href = tag.attrs.get("href");
      if (href) jsQueue.push(new URL(href, pageUrl).href);
    } else if (tag.name === "link" && rel.includes("stylesheet") && !rel.includes("alternate")) {
      const href = tag.attrs.get("href");
      const media = tag.attrs.get("media") ?? "all";
      if (href && media !== "print") cssUrls.add(new URL(href, pageUrl).href);
    } else if (tag.name === "style") {
      inlineStyleBytes += Buffer.byteLength(tag.body);
    }
  }

  const js = new Map<string, Asset>();
  while (jsQueue.length > 0) {
    const url = jsQueue.shift();
    if (url === undefined || js.has(url)) continue;
    const { asset, body } = await fetchAsset(url);
    js.set(url, asset);
    for (const specifier of eagerImports(body.toString("utf8"), false))
      jsQueue.push(new URL(specifier, url).href);
  }
  const css = await Promise.all([...cssUrls].map(async (url) => (await fetchAsset(url)).asset));
  const sum = (assets: Asset[]) => assets.reduce((total, asset) => total + asset.gzipBytes, 0);
  return {
    js: [...js.values()],
    css,
    jsGzipBytes: sum([...js.values()]),
    cssGzipBytes: sum(css),
    inlineStyleBytes,
  };
}

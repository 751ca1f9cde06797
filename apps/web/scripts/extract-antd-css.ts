/**
 * Writes `app/styles/antd.generated.css`: the Ant Design component styles the site uses
 * plus the light and dark token-variable blocks, so the app can run antd with
 * `zeroRuntime` and ship its styles as one hashed, cacheable stylesheet. Also writes
 * `app/styles/admin-antd.generated.css`, the extra components only the admin pages use
 * (linked by those routes alone, so public pages keep their render-blocking CSS small),
 * and `app/styles/account-antd.generated.css`, those of the login, sign-up and account
 * pages (linked by those routes: app/ui/account-styles.ts).
 * All three are build output (git-ignored), made by the build and by `npm run dev`.
 *
 *   npx node apps/web/scripts/extract-antd-css.ts        (also run by `npm run build -w @meridian/web`)
 *
 * NOTE: a feature that starts using another antd component adds it to one of the lists
 * below: antd runs with `zeroRuntime`, so a component missing here renders unstyled.
 * Keep an eye on the render-blocking budget (`npm run size:css -w @meridian/web`).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { extractStyle } from "@ant-design/static-style-extract";
import { ConfigProvider } from "antd";
import { createElement, Fragment, type ReactElement } from "react";
import { antdThemeConfig } from "../app/theme/antd-theme.ts";

/** Components rendered on the site. Names are antd's export names. */
export const ANTD_COMPONENTS = ["Button", "Drawer", "Modal", "Tag", "Collapse", "Pagination"];

/** Components only the admin pages (/admin/airdrops, /admin/tg-apps) render. */
export const ADMIN_ANTD_COMPONENTS = [
  "Table",
  "Form",
  "Input",
  "Switch",
  "Select",
  "Empty",
  "Spin",
  "Checkbox",
];

/** Components the login, sign-up and account pages render (features/account). */
export const ACCOUNT_ANTD_COMPONENTS = [
  "Alert",
  "Card",
  "Checkbox",
  "Descriptions",
  "Divider",
  "Empty",
  "Form",
  "Input",
  "QRCode",
  "Radio",
  "Result",
  "Select",
  "Space",
  "Spin",
  "Steps",
  "Table",
  "Tabs",
  "Typography",
];

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const outFile = path.join(webDir, "app/styles/antd.generated.css");
const adminOutFile = path.join(webDir, "app/styles/admin-antd.generated.css");
const accountOutFile = path.join(webDir, "app/styles/account-antd.generated.css");

function render(node: ReactElement): ReactElement {
  // Both themes render into one cache: component rules (hashed: false) are shared, the
  // token blocks differ by cssVar key.
  return createElement(
    Fragment,
    null,
    createElement(ConfigProvider, { theme: { ...antdThemeConfig("white"), zeroRuntime: false } }, node),
    createElement(ConfigProvider, { theme: { ...antdThemeConfig("black"), zeroRuntime: false } }, node),
  );
}

const VAR_BLOCK = /([^{}]+)\{((?:--[\w-]+:[^;{}]*;)+)\}/g;
const VAR_REF = /var\((--[\w-]+)/g;
const KEY_PREFIX = /^\.(mer-light|mer-dark)/;

/** Custom properties the site's own CSS and components read, which must survive pruning. */
function appVarRefs(dir: string, found = new Set<string>()): Set<string> {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) appVarRefs(full, found);
    else if (/\.(css|tsx?)$/.test(name) && !name.includes(".generated.")) {
      for (const m of readFileSync(full, "utf8").matchAll(VAR_REF)) if (m[1]) found.add(m[1]);
    }
  }
  return found;
}

/** Read once: every stylesheet this script writes prunes against the same app sources. */
const APP_VAR_REFS = appVarRefs(path.join(webDir, "app"));

/**
 * Token blocks repeat every variable per theme, most with the same value. Merge them
 * per scope (shared values once, differing values per key) and drop variables nothing
 * reads. The runtime re-registers the full set after hydration, so pruning only
 * affects the first paint, where unreferenced variables have no effect anyway.
 */
function compactVariables(css: string): string {
  const scopes = new Map<string, Map<string, Map<string, string>>>();
  const rules = css.replace(VAR_BLOCK, (block, selector: string, body: string) => {
    const sel = selector.trim();
    const key = KEY_PREFIX.exec(sel)?.[1];
    if (!key || sel.includes(",")) return block;
    const scope = sel.slice(key.length + 1);
    const byKey = scopes.get(scope) ?? new Map<string, Map<string, string>>();
    scopes.set(scope, byKey);
    const decls = byKey.get(key) ?? new Map<string, string>();
    byKey.set(key, decls);
    for (const decl of body.split(";")) {
      const at = decl.indexOf(":");
      if (at > 0) decls.set(decl.slice(0, at), decl.slice(at + 1));
    }
    return "";
  });

  const used = new Set(APP_VAR_REFS);
  const refsIn = (text: string) => {
    for (const m of text.matchAll(VAR_REF)) if (m[1]) used.add(m[1]);
  };
  refsIn(rules);
  // Values may point at other variables (component tokens built on global ones).
  for (const byKey of scopes.values())
    for (const decls of byKey.values()) refsIn([...decls.values()].join(";"));

  let out = "";
  for (const [scope, byKey] of scopes) {
    const light = byKey.get("mer-light") ?? new Map<string, string>();
    const dark = byKey.get("mer-dark") ?? new Map<string, string>();
    const shared: string[] = [];
    const onlyLight: string[] = [];
    const onlyDark: string[] = [];
    for (const name of new Set([...light.keys(), ...dark.keys()])) {
      if (!used.has(name)) continue;
      const l = light.get(name);
      const d = dark.get(name);
      if (l !== undefined && l === d) shared.push(`${name}:${l}`);
      else {
        if (l !== undefined) onlyLight.push(`${name}:${l}`);
        if (d !== undefined) onlyDark.push(`${name}:${d}`);
      }
    }
    if (shared.length) out += `.mer-light${scope},.mer-dark${scope}{${shared.join(";")}}`;
    if (onlyLight.length) out += `.mer-light${scope}{${onlyLight.join(";")}}`;
    if (onlyDark.length) out += `.mer-dark${scope}{${onlyDark.join(";")}}`;
  }
  return out + rules;
}

const HEADER = "/* Generated by apps/web/scripts/extract-antd-css.ts from antd; do not edit. */\n";
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const raw = extractStyle({ includes: ANTD_COMPONENTS, customTheme: render });
const css = `${HEADER}${compactVariables(raw)}\n`;
writeFileSync(outFile, css);
console.log(
  `antd css: ${ANTD_COMPONENTS.length} components, ${kb(css.length)} raw (${kb(raw.length)} before compaction), ${kb(gzipSync(css).length)} gzip -> ${path.relative(process.cwd(), outFile)}`,
);

/** The extra stylesheet of a group of pages (their components' rules, after the site's own file). */
function writeExtra(label: string, components: readonly string[], file: string): void {
  const extra = `${HEADER}${compactVariables(extractStyle({ includes: [...components], customTheme: render }))}\n`;
  writeFileSync(file, extra);
  console.log(
    `${label} antd css: ${components.length} components, ${kb(extra.length)} raw, ${kb(gzipSync(extra).length)} gzip -> ${path.relative(process.cwd(), file)}`,
  );
}

writeExtra("admin", ADMIN_ANTD_COMPONENTS, adminOutFile);
writeExtra("account", ACCOUNT_ANTD_COMPONENTS, accountOutFile);

/**
 * The embeddable shell (docs/product.md §1): header, footer and legal dialog for other sites.
 * `npm run build:embed -w @meridian/web` writes `build/embed/`:
 *
 *   shell.js               the loader: stable URL, short cache (see embed/loader.js)
 *   assets/meridian-shell-*.js  the ES module (React, antd zeroRuntime, the shell), immutable
 *   assets/meridian-shell-*.css antd's extracted CSS and the site CSS, scoped to .meridian-shell
 *   assets/*.js            chunks loaded on demand: one per translation set, antd locale
 *                          data, the legal dialog (Modal) and the phone menu (Drawer)
 *
 * The server serves it under `/embed/` (apps/server/src/platform/http/embed.ts).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { defineConfig, type Plugin } from "vite";
import { scopeToShell } from "./embed/scope-css.ts";

const webDir = path.dirname(fileURLToPath(import.meta.url));

/** Writes `shell.js`, the loader, pointing at this build's hashed module and stylesheet. */
function emitLoader(): Plugin {
  return {
    name: "meridian:embed-loader",
    apply: "build",
    // After Vite's CSS plugin has emitted the one stylesheet (cssCodeSplit: false).
    enforce: "post",
    generateBundle(_options, bundle) {
      const entry = Object.values(bundle).find((file) => file.type === "chunk" && file.isEntry);
      if (entry?.type !== "chunk") throw new Error("embed build: no entry chunk");
      const css = Object.keys(bundle).filter((name) => name.endsWith(".css"));
      if (css.length !== 1 || css[0] === undefined)
        throw new Error(`embed build: expected one stylesheet, got ${css.length}`);
      const source = readFileSync(path.join(webDir, "embed/loader.js"), "utf8")
        .replace("__MERIDIAN_ENTRY__", `./${entry.fileName}`)
        .replace("__MERIDIAN_STYLES__", `./${css[0]}`);
      this.emitFile({ type: "asset", fileName: "shell.js", source });

      // Figures for the README: what every embedding page loads before the shell shows.
      const gzip = (name: string): number => {
        const file = bundle[name];
        if (!file) return 0;
        return gzipSync(file.type === "chunk" ? file.code : file.source).length;
      };
      const firstLoad = new Set<string>();
      const visit = (name: string) => {
        if (firstLoad.has(name)) return;
        firstLoad.add(name);
        const file = bundle[name];
        if (file?.type === "chunk") for (const dep of file.imports) visit(dep);
      };
      visit(entry.fileName);
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      const js = [...firstLoad].reduce((sum, name) => sum + gzip(name), 0);
      const i18n = Object.keys(bundle).filter((name) => name.includes("/i18n-"));
      const i18nTotal = i18n.reduce((sum, name) => sum + gzip(name), 0);
      this.info(
        `gzip: loader ${kb(gzipSync(source).length)}, first-load JS ${kb(js)} (${firstLoad.size} files), ` +
          `CSS ${kb(gzip(css[0]))}; shell translations ${kb(i18nTotal)} for ${i18n.length} sets ` +
          `(${kb(i18nTotal / Math.max(1, i18n.length))} each, fetched per locale)`,
      );
    },
  };
}

export default defineConfig({
  // Chunks resolve against the module's own URL, wherever the host page lives.
  base: "./",
  publicDir: false,
  mode: "production",
  define: { "process.env.NODE_ENV": JSON.stringify("production") },
  // Production JSX even when the build runs without NODE_ENV=production (npm scripts).
  oxc: { jsx: { runtime: "automatic", development: false } },
  // The shell renders antd's Button, Modal and Drawer only: the site's other antd blocks stay out.
  css: { postcss: { plugins: [scopeToShell({ dropAntd: ["tag", "collapse", "pagination"] })] } },
  plugins: [emitLoader()],
  build: {
    outDir: path.join(webDir, "build/embed"),
    emptyOutDir: true,
    target: "es2022",
    cssCodeSplit: false,
    modulePreload: false,
    rollupOptions: {
      input: { "meridian-shell": path.join(webDir, "embed/main.tsx") },
      preserveEntrySignatures: "exports-only",
      // antd marks its modules "use client"; meaningless in a browser-only bundle.
      onwarn(warning, warn) {
        if (warning.code !== "MODULE_LEVEL_DIRECTIVE") warn(warning);
      },
      output: {
        entryFileNames: "assets/[name]-[hash].js",
        chunkFileNames: (chunk) => {
          const set = /resources\/([^/]+)\/shell\.json$/.exec(chunk.facadeModuleId ?? "")?.[1];
          return set ? `assets/i18n-${set}-[hash].js` : "assets/[name]-[hash].js";
        },
        assetFileNames: (asset) =>
          asset.names.some((name) => name.endsWith(".css"))
            ? "assets/meridian-shell-[hash][extname]"
            : "assets/[name]-[hash][extname]",
      },
    },
  },
});

import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

/**
 * NOTE: the Fastify server seeds `serverContext` (@meridian/ssr-context) and loaders read
 * it; React Router looks tokens up by identity, so both sides must hold the one instance
 * Node loads. The package stays external in the SSR build and in the development SSR
 * runner (the plugin below) instead of a bundled copy, so Node resolves it to the
 * same file the server imports.
 */
const SHARED_WITH_SERVER = "@meridian/ssr-context";

function shareServerContext(): Plugin {
  return {
    name: "meridian:share-server-context",
    enforce: "pre",
    resolveId(source) {
      if (this.environment.name !== "ssr" || source !== SHARED_WITH_SERVER) return null;
      return { id: SHARED_WITH_SERVER, external: true };
    },
  };
}

/** Module ids with forward slashes, so the patterns below read the same on every OS. */
const slashed = (id: string) => id.replaceAll("\\", "/");

/**
 * React, React Router and i18next: what every page hydrates with, one request instead of
 * eight. Not `<Trans>` and its HTML parser (4.7 KB gzip): only the apps list renders one,
 * and it loads them with its own chunks.
 */
const FRAMEWORK =
  /\/node_modules\/(?:(?:react|react-dom|scheduler|react-router|i18next|cookie|set-cookie-parser)\/|react-i18next\/(?!dist\/es\/(?:Trans|TransWithoutContext|unescape)\.js))/;

/**
 * The root layout's own code (shell, theme, simulation guard, SEO links) and the little
 * it needs from packages (each group also takes its modules' static dependencies). The shell's dialogs and drawer and the antd provider stay out:
 * they load on demand, with antd. So does the trading pages' LoadError, whose API client
 * import would bring the client, zod and every contract schema into every page's first
 * load (`npm run check:budgets` fails when something like it creeps in).
 */
const SHELL = [
  /\/app\/features\/shell\/(?!legal-dialog|mobile-menu|antd-config|load-error)[^/]+$/,
  /\/app\/features\/simulation\/simulation-(provider|controller)\.tsx?$/,
  /\/app\/features\/(seo\/(canonical|seo)|image-domain\/use-image-domain|tracking\/use-tracker)\.ts$/,
  /\/app\/(lib\/cookies|theme\/theme)\.ts$/,
  // The zod-free contract modules: small, and shared by the pages and by the contracts
  // index (zod), which would otherwise drag a feature's chunk along wherever it loads.
  /\/packages\/contracts\/src\/(locales|simulation|airdrop-rules|tg-app-rules|order-values)\.ts$/,
  // The icon runtime; the shell's own icons follow as its dependencies (not antd's).
  /\/node_modules\/@ant-design\/icons\/es\/components\//,
];

const API_ERROR = /\/packages\/client\/src\/api-error\.ts$/;

/** What the airdrops and tg-apps pages share for their images (zod-free). */
const CONTENT_MEDIA =
  /\/(app\/features\/media\/responsive-img\.tsx|packages\/contracts\/src\/media-rules\.ts)$/;

/**
 * A public content feature's shared parts: its pages' components, not its admin pages,
 * server modules, stylesheet URLs or the files listed in `except` (antd dialogs, modules
 * other features import too, which would otherwise pull the whole group along).
 */
function featureParts(feature: string, except: readonly string[] = []) {
  const inFeature = new RegExp(`/app/features/${feature}/(?!admin)[^/]+\\.tsx?$`);
  return (id: string) => {
    const file = slashed(id);
    return (
      inFeature.test(file) && !file.includes(".server.") && !except.some((name) => file.endsWith(`/${name}`))
    );
  };
}

export const ANTD_PRELOAD_ID = "virtual:meridian/antd-preload";

/** Chunk files of a dynamic import, the ones it imports first. */
interface PreloadList {
  /** The antd provider (features/shell/antd-config.tsx) and everything it imports. */
  config: string[];
  /** antd locale chunk by antd locale name (`en_US`), dayjs locale chunk by dayjs name (`en-gb`). */
  antdLocales: Record<string, string>;
  dayjsLocales: Record<string, string>;
}

/**
 * `virtual:meridian/antd-preload`: the client chunks a page that renders antd needs before
 * it hydrates (antd's provider, the language's antd and dayjs data). They load through
 * dynamic imports, which the route manifest does not list, so the root layout turns this
 * list into `<link rel="modulepreload">` and the browser fetches them with the rest of the
 * page instead of after the entry script. The client build records the files; the server
 * build, which runs after it in the same process, reads them. Empty in development.
 */
function antdPreload(): Plugin {
  let list: PreloadList | undefined;
  const resolved = `\0${ANTD_PRELOAD_ID}`;
  return {
    name: "meridian:antd-preload",
    resolveId(id) {
      return id === ANTD_PRELOAD_ID ? resolved : null;
    },
    load(id) {
      if (id !== resolved) return null;
      const empty: PreloadList = { config: [], antdLocales: {}, dayjsLocales: {} };
      if (this.environment.config.command !== "build" || this.environment.name === "client") {
        return `export default ${JSON.stringify(empty)};`;
      }
      if (!list) this.error("antd preload list missing: the client build must run before the server build");
      return `export default ${JSON.stringify(list)};`;
    },
    generateBundle(_options, bundle) {
      if (this.environment.name !== "client") return;
      const base = this.environment.config.base;
      const chunks = Object.values(bundle).filter((c) => c.type === "chunk");
      const byFile = new Map(chunks.map((c) => [c.fileName, c]));
      const holding = (pattern: RegExp) =>
        chunks.filter((c) => c.moduleIds.some((m) => pattern.test(slashed(m))));
      const config = new Set<string>();
      const visit = (file: string) => {
        if (config.has(file)) return;
        config.add(file);
        for (const dep of byFile.get(file)?.imports ?? []) visit(dep);
      };
      for (const chunk of holding(/\/app\/(features\/shell\/antd-config\.tsx|i18n\/locale-modules\.ts)$/)) {
        visit(chunk.fileName);
      }
      if (config.size === 0) this.error("antd preload: no chunk holds features/shell/antd-config.tsx");
      const byLocale = (pattern: RegExp) => {
        const out: Record<string, string> = {};
        for (const chunk of chunks) {
          const name = chunk.facadeModuleId ? pattern.exec(slashed(chunk.facadeModuleId))?.[1] : undefined;
          if (name) out[name] = base + chunk.fileName;
        }
        return out;
      };
      list = {
        config: [...config].map((file) => base + file),
        antdLocales: byLocale(/\/antd\/(?:es\/|lib\/)?locale\/(\w+)\.js$/),
        dayjsLocales: byLocale(/\/dayjs\/locale\/([\w-]+)\.js$/),
      };
    },
  };
}

export const ISLANDS_ID = "virtual:meridian/islands";
const islandsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "dist/islands");

/**
 * `virtual:meridian/islands`: the URL of the islands bundle (vite.islands.config.ts, built
 * first), which the root layout loads on pages without hydration. In development, the
 * source module, which Vite serves. The client build copies the bundle's files into its
 * own assets, so they are served, cached and precompressed like the rest.
 */
function islands(): Plugin {
  const resolved = `\0${ISLANDS_ID}`;
  return {
    name: "meridian:islands",
    resolveId(id) {
      return id === ISLANDS_ID ? resolved : null;
    },
    load(id) {
      if (id !== resolved) return null;
      if (this.environment.config.command !== "build") return `export default "/app/islands/main.ts";`;
      let manifest: Record<string, { file: string; isEntry?: boolean }>;
      try {
        manifest = JSON.parse(readFileSync(path.join(islandsDir, ".vite/manifest.json"), "utf8"));
      } catch {
        this.error(
          "islands bundle missing: run `vite build -c vite.islands.config.ts` first (npm run build)",
        );
      }
      const entry = Object.values(manifest).find((m) => m.isEntry);
      if (!entry) this.error("islands bundle: no entry in its manifest");
      return `export default ${JSON.stringify(this.environment.config.base + entry.file)};`;
    },
    generateBundle() {
      if (this.environment.name !== "client" || this.environment.config.command !== "build") return;
      for (const file of readdirSync(path.join(islandsDir, "assets"))) {
        this.emitFile({
          type: "asset",
          fileName: `assets/${file}`,
          source: readFileSync(path.join(islandsDir, "assets", file)),
        });
      }
    },
  };
}

/**
 * Client chunking. Left alone, the bundler cuts a chunk for every distinct set of route
 * modules sharing a module, so a page's first load was some 30 requests, most under 2 KB
 * (HTTP/1.1 clients fetch six at a time). These groups merge what every page loads
 * anyway, and each content feature's shared parts, into a few chunks; anything only some
 * pages need (antd, zod, charts, dialogs) keeps its automatic chunk.
 */
function clientChunks(): Plugin {
  return {
    name: "meridian:client-chunks",
    configEnvironment(name) {
      if (name !== "client") return null;
      return {
        build: {
          rolldownOptions: {
            treeshake: { manualPureFunctions: ["z"] },
            output: {
              codeSplitting: {
                groups: [
                  { name: "framework", test: (id: string) => FRAMEWORK.test(slashed(id)), priority: 30 },
                  {
                    name: "shell",
                    test: (id: string) => SHELL.some((re) => re.test(slashed(id))),
                    priority: 20,
                  },
                  // Both content features show images with these: in either's group, the
                  // other's pages would load that whole group for them.
                  {
                    name: "content-media",
                    test: (id: string) => CONTENT_MEDIA.test(slashed(id)),
                    priority: 15,
                  },
                  // The API client's error class (zod-free, `@meridian/client/api-error`):
                  // the trading pages test their failures with it; left to the bundler it
                  // went into the client's own chunk, which brought the client and zod into
                  // their first load. Not in the shell: the home page does not need it.
                  { name: "api-error", test: (id: string) => API_ERROR.test(slashed(id)), priority: 15 },
                  { name: "airdrops-parts", test: featureParts("airdrops", ["money.ts"]), priority: 10 },
                  {
                    name: "tg-apps-parts",
                    test: featureParts("tg-apps", ["submit-dialog.tsx"]),
                    priority: 10,
                  },
                ],
              },
            },
          },
        },
      };
    },
  };
}

export default defineConfig({
  plugins: [shareServerContext(), clientChunks(), antdPreload(), islands(), reactRouter()],
});

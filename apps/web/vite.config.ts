import path from "node:path";
import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

const serverContextFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "app/server-context.ts");

/**
 * NOTE: the Fastify server seeds `serverContext` (app/server-context.ts) and loaders read
 * it; React Router looks tokens up by identity, so both sides must hold the one instance
 * Node loads from that file. In the SSR build every import of the file, whatever its
 * spelling, stays an external import of the package import `#server-context`
 * (package.json "imports") instead of a bundled copy; Node resolves it to the same file
 * the server imports, and loads the .ts directly. In development the server takes the
 * token from Vite's SSR runner instead, which is where loaders get it from
 * (apps/server/src/platform/http/ssr.ts).
 */
function shareServerContext(): Plugin {
  return {
    name: "meridian:share-server-context",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (this.environment.config.command !== "build") return null;
      if (this.environment.name !== "ssr" || importer === undefined) return null;
      if (!source.includes("server-context")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved === null || path.normalize(resolved.id) !== serverContextFile) return null;
      return { id: "#server-context", external: true };
    },
  };
}

export default defineConfig({
  plugins: [shareServerContext(), reactRouter()],
});

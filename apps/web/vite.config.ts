import path from "node:path";
import { fileURLToPath } from "node:url";
import { reactRouter } from "@react-router/dev/vite";
import { defineConfig, type Plugin } from "vite";

const serverContextFile = path.join(path.dirname(fileURLToPath(import.meta.url)), "app/server-context.ts");

/**
 * NOTE: the Fastify server seeds `serverContext` (app/server-context.ts) and loaders read
 * it; React Router looks tokens up by identity, so both sides must hold the one instance
 * Node loads from that file. In the SSR build (and the dev SSR runner) every import of
 * the file, whatever its spelling, stays an external import of the file itself instead
 * of a bundled copy. Node 24 loads the .ts directly.
 */
function shareServerContext(): Plugin {
  return {
    name: "meridian:share-server-context",
    enforce: "pre",
    async resolveId(source, importer, options) {
      if (this.environment.name !== "ssr" || importer === undefined) return null;
      if (!source.includes("server-context")) return null;
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
      if (resolved === null || path.normalize(resolved.id) !== serverContextFile) return null;
      return { id: serverContextFile, external: true };
    },
  };
}

export default defineConfig({
  plugins: [shareServerContext(), reactRouter()],
});

import { readFile } from "node:fs/promises";
import path from "node:path";
import type { FastifyInstance, FastifyReply } from "fastify";
import { WEB_DIR } from "./ssr.ts";

/**
 * The embeddable shell (apps/web/vite.embed.config.ts) and its demo page:
 *
 * - `GET /embed/shell.js`: the loader, a stable URL other sites put in one script tag;
 *   cached five minutes, so a new build reaches them soon.
 * - `GET /embed/assets/<hashed file>`: the module, its chunks, stylesheet and font files
 *   (the site's faces); a new build is new names, so cached for a year.
 * - `GET /embed-demo`: a static page that embeds the shell the way a campaign site would.
 *
 * Script, style and font files allow any origin (CORS, CORP): module scripts and fonts
 * loaded from another site need it.
 */
export interface EmbedRoutesOptions {
  /** The embed build output (`apps/web/build/embed`). */
  buildDir: string;
  /** The demo page's files (`apps/web/embed/demo`). */
  demoDir: string;
}

export const EMBED_LOADER_CACHE = "public, max-age=300";
export const EMBED_ASSET_CACHE = "public, max-age=31536000, immutable";

const TYPES: Record<string, string> = {
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".html": "text/html; charset=utf-8",
  ".woff2": "font/woff2",
};

/** Plain file names only: no path separators, no dot files, a known extension. */
const SAFE_NAME = /^[\w-][\w.-]*\.(js|css|html|woff2)$/;

async function sendFile(reply: FastifyReply, file: string, cacheControl: string, shared: boolean) {
  let body: Buffer;
  try {
    body = await readFile(file);
  } catch {
    return reply.status(404).type("text/plain; charset=utf-8").send("Not Found");
  }
  if (shared) {
    reply.header("access-control-allow-origin", "*");
    reply.header("cross-origin-resource-policy", "cross-origin");
  }
  return reply
    .header("cache-control", cacheControl)
    .type(TYPES[path.extname(file)] ?? "application/octet-stream")
    .send(body);
}

const DEFAULT_DIRS: EmbedRoutesOptions = {
  buildDir: path.join(WEB_DIR, "build/embed"),
  demoDir: path.join(WEB_DIR, "embed/demo"),
};

export function registerEmbedRoutes(app: FastifyInstance, options: EmbedRoutesOptions = DEFAULT_DIRS): void {
  const assetsDir = path.join(options.buildDir, "assets");

  app.get("/embed/shell.js", (_request, reply) =>
    sendFile(reply, path.join(options.buildDir, "shell.js"), EMBED_LOADER_CACHE, true),
  );

  app.get<{ Params: { file: string } }>("/embed/assets/:file", (request, reply) => {
    const { file } = request.params;
    if (!SAFE_NAME.test(file)) return reply.status(404).type("text/plain; charset=utf-8").send("Not Found");
    return sendFile(reply, path.join(assetsDir, file), EMBED_ASSET_CACHE, true);
  });

  const demoPage = (_request: unknown, reply: FastifyReply) =>
    sendFile(reply, path.join(options.demoDir, "index.html"), "no-cache", false);
  app.get("/embed-demo", demoPage);
  app.get("/embed-demo/", demoPage);
  app.get<{ Params: { file: string } }>("/embed-demo/:file", (request, reply) => {
    const { file } = request.params;
    if (!SAFE_NAME.test(file)) return reply.status(404).type("text/plain; charset=utf-8").send("Not Found");
    return sendFile(reply, path.join(options.demoDir, file), "no-cache", false);
  });
}

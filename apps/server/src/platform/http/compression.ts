import { constants } from "node:zlib";
import type { FastifyCompressOptions } from "@fastify/compress";

/**
 * Dynamic answers (pages, JSON) are compressed on the fly, per response (a page's CSP
 * nonce differs every time, even when the HTML comes from the micro-cache), so the level
 * is picked for CPU: on the 34 KB home page brotli quality 2 gives 10.6 KB in ~0.25 ms of
 * CPU, quality 4 9.7 KB in ~0.6 ms (a third of a cached page's whole cost) and quality 1
 * 11.7 KB in ~0.15 ms; gzip (the fallback) level 3 matches quality 2's size in ~0.26 ms,
 * level 6 saves 5% more for twice the CPU. Hashed static assets never reach this: they
 * are compressed once at build time (apps/web/scripts/precompress.ts, level 11 / gzip 9)
 * and served as they are through @fastify/static's `preCompressed`.
 *
 * `syncThreshold`: answers up to 128 KB that are already in memory (every cached page,
 * JSON) are compressed in one call on the event loop. The plugin's default on a 2-core
 * host is 8 KB, which sends a page through a zlib stream on the threadpool: more setup
 * and scheduling than the compression itself, and no spare core to overlap it with.
 */
export const compressOptions: FastifyCompressOptions = {
  global: true,
  threshold: 1024,
  syncThreshold: 128 * 1024,
  encodings: ["br", "gzip"],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 2 } },
  zlibOptions: { level: 3 },
};

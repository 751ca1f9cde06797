import { constants } from "node:zlib";
import type { FastifyCompressOptions } from "@fastify/compress";

/**
 * Dynamic answers (pages, JSON) are compressed on the fly with a cheap brotli level:
 * quality 4 is within a few percent of quality 11 on HTML while costing a fraction of
 * the CPU, so server render latency stays flat. Hashed static assets never reach this:
 * they are compressed once at build time (apps/web/scripts/precompress.ts, level 11 /
 * gzip 9) and served as they are through @fastify/static's `preCompressed`.
 */
export const compressOptions: FastifyCompressOptions = {
  global: true,
  threshold: 1024,
  encodings: ["br", "gzip"],
  brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  zlibOptions: { level: 6 },
};

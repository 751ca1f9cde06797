/**
 * Writes `.br` (quality 11) and `.gz` (level 9) beside every compressible file of the
 * client and embed builds, once at build time, so the server answers hashed assets
 * from disk with no per-request compression (@fastify/static `preCompressed`).
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const webDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const COMPRESSIBLE = /\.(js|mjs|css|html|json|svg|txt|xml|map)$/;
// Below this, the encoded file plus headers is rarely smaller than the original.
const MIN_BYTES = 1024;

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* files(full);
    else if (COMPRESSIBLE.test(entry.name)) yield full;
  }
}

let count = 0;
let raw = 0;
let brotli = 0;
for (const root of ["build/client", "build/embed"].map((d) => path.join(webDir, d))) {
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) continue;
  for (const file of files(root)) {
    const body = readFileSync(file);
    if (body.length < MIN_BYTES) continue;
    const br = brotliCompressSync(body, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 11,
        [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
      },
    });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    count += 1;
    raw += body.length;
    brotli += br.length;
  }
}
console.log(`precompress: ${count} files, ${raw} bytes -> ${brotli} bytes brotli`);

/**
 * `npm run bench:tracker-size`: the tracking SDK as a site loads it (one minified
 * bundle, web-vitals inside), as ESM and as a script-tag IIFE. The last line is
 * `{"min_bytes": N, "gzip_bytes": N}` for the ESM bundle, the one the web app ships.
 * The pass/fail budget (10 240 B gzip) lives in packages/tracker/src/size.test.ts.
 */
import { bundleTracker, SIZE_BUDGET_GZIP_BYTES } from "../packages/tracker/scripts/bundle.ts";

const iife = await bundleTracker("iife");
console.log(`iife (script tag): ${iife.min_bytes} B minified, ${iife.gzip_bytes} B gzip`);
const esm = await bundleTracker("esm");
console.log(
  `esm: ${esm.min_bytes} B minified, ${esm.gzip_bytes} B gzip (budget ${SIZE_BUDGET_GZIP_BYTES} B)`,
);
console.log(JSON.stringify({ min_bytes: esm.min_bytes, gzip_bytes: esm.gzip_bytes }));

/** Writes `dist/tracker.js` (ESM) and `dist/tracker.iife.js` (script tag, `window.MeridianTracker`). */
import { mkdirSync, writeFileSync } from "node:fs";
import { bundleTracker } from "./bundle.ts";

const dist = new URL("../dist/", import.meta.url);
mkdirSync(dist, { recursive: true });
for (const [format, name] of [
  ["esm", "tracker.js"],
  ["iife", "tracker.iife.js"],
] as const) {
  const bundle = await bundleTracker(format);
  writeFileSync(new URL(name, dist), bundle.code);
  console.log(`${name}: ${bundle.min_bytes} B minified, ${bundle.gzip_bytes} B gzip`);
}

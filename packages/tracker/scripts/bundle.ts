/**
 * Bundles the SDK the way a site ships it: one minified file with web-vitals inside.
 * Used by the size check, `npm run bench:tracker-size`, `npm run build -w @meridian/tracker`
 * and the browser test.
 */
import { gzipSync } from "node:zlib";
import { build } from "esbuild";

export const SIZE_BUDGET_GZIP_BYTES = 10_240;

const entry = new URL("../src/index.ts", import.meta.url).pathname;

export interface Bundle {
  code: string;
  min_bytes: number;
  gzip_bytes: number;
}

/** `esm` is what a bundler-using site gets; `iife` defines `window.MeridianTracker` for a script tag. */
export async function bundleTracker(format: "esm" | "iife" = "esm"): Promise<Bundle> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format,
    globalName: format === "iife" ? "MeridianTracker" : undefined,
    target: "es2020",
    platform: "browser",
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  const code = result.outputFiles[0]?.text ?? "";
  return {
    code,
    min_bytes: Buffer.byteLength(code),
    gzip_bytes: gzipSync(code, { level: 9 }).length,
  };
}

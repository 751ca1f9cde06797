/**
 * Bundles the SDK the way a site ships it: one minified file with web-vitals inside.
 * Used by the size check, `npm run bench:tracker-size`, `npm run build -w @meridian/tracker`
 * and the browser test.
 */
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
  // web streams rather than node:zlib, so that this file typechecks with the browser code
  const gzip = new Blob([code]).stream().pipeThrough(new CompressionStream("gzip"));
  return {
    code,
    min_bytes: new TextEncoder().encode(code).length,
    gzip_bytes: (await new Response(gzip).arrayBuffer()).byteLength,
  };
}

import { defineConfig } from "vitest/config";

// The tracker's real-browser flow: a static page loading the built SDK, a Node ingest
// recording uploads, Chromium through playwright-core. Run with
// `npm run test:browser -w @meridian/tracker`.
export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ["e2e/**/*.e2e.ts"],
    environment: "node",
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});

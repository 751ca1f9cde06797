import { defineConfig } from "vitest/config";

// NOTE: browser flows against the real production server (apps/web/e2e/harness.ts).
// Files run one at a time: each starts its own server and Chromium in beforeAll, and
// the machine is shared, so parallel files would only make timings flaky.
export default defineConfig({
  test: {
    include: ["apps/web/e2e/**/*.e2e.ts", "packages/tracker/e2e/**/*.e2e.ts"],
    exclude: ["**/node_modules/**", "**/build/**"],
    environment: "node",
    globalSetup: ["scripts/e2e-global-setup.ts"],
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    teardownTimeout: 20_000,
  },
});

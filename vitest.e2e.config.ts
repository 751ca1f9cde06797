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
    // A real browser on a shared 2-core machine: a UI condition polled for 1 s (Vitest's
    // default) flakes under load, so polls wait up to 10 s unless a test says otherwise.
    expect: { poll: { timeout: 10_000 } },
  },
});

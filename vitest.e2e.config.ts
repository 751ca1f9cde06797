import { defineConfig } from "vitest/config";

// NOTE: browser flows against the real production server (apps/web/e2e/harness.ts).
// Each file starts its own server (own data directory, free port) and Chromium in
// beforeAll, so files share nothing and two run at once (E2E_WORKERS, default 2): most of
// a file's time is spent waiting on its server and browser, not on a core.
export default defineConfig({
  test: {
    include: ["apps/web/e2e/**/*.e2e.ts", "packages/tracker/e2e/**/*.e2e.ts"],
    exclude: ["**/node_modules/**", "**/build/**"],
    environment: "node",
    globalSetup: ["scripts/e2e-global-setup.ts"],
    maxWorkers: Number(process.env.E2E_WORKERS ?? 2),
    // Liveness bounds, not speed targets (those are benchmarks): a fresh clone's CI run saw
    // page flows that take 35 s quiet pass 60 s at load 13-24.
    testTimeout: 120_000,
    // A server starts in beforeAll: seeding the demo content takes seconds, more on a busy machine.
    hookTimeout: 120_000,
    teardownTimeout: 20_000,
    // A real browser on a shared 2-core machine: a UI condition polled for 1 s (Vitest's
    // default) flakes under load, so polls wait up to 10 s unless a test says otherwise.
    expect: { poll: { timeout: 10_000 } },
  },
});

import { defineConfig } from "vitest/config";

// NOTE: one Vitest run covers every workspace. Browser flows (Playwright) live in
// apps/web/e2e and run through their own runner; `*.int.test.ts` need a database
// and run here too (SQLite always, PostgreSQL when TEST_DATABASE_URL is set).
//
// Two projects, run together: `unit` (the packages and the web app's code: pure
// functions and components, no servers, no process-wide state) shares each worker's
// module graph between files (`isolate: false`), which halves its CPU (43 -> 19 s: most of
// an isolated file's time was importing its dependencies again); `server` (the server,
// the scripts, the benchmarks' tests) keeps one fresh module graph per file, since its
// files start servers, fake timers and swap module state.
export default defineConfig({
  test: {
    exclude: ["**/node_modules/**", "**/build/**", "apps/web/e2e/**"],
    environment: "node",
    testTimeout: 20_000,
    // Database suites migrate and seed in beforeAll; on a loaded 2-core CI box that can pass 10 s.
    hookTimeout: 30_000,
    projects: [
      {
        test: {
          name: "unit",
          include: [
            "packages/**/src/**/*.test.{ts,tsx}",
            "apps/web/app/**/*.test.{ts,tsx}",
            "apps/web/embed/**/*.test.{ts,tsx}",
          ],
          isolate: false,
        },
      },
      {
        test: {
          name: "server",
          include: ["apps/**/src/**/*.test.{ts,tsx}", "bench/**/*.test.ts", "scripts/**/*.test.ts"],
        },
      },
    ],
  },
});

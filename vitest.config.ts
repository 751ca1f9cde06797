import { defineConfig } from "vitest/config";

// NOTE: one Vitest run covers every workspace. Browser flows (Playwright) live in
// apps/web/e2e and run through their own runner; `*.int.test.ts` need a database
// and run here too (SQLite always, PostgreSQL when TEST_DATABASE_URL is set).
export default defineConfig({
  test: {
    include: [
      "packages/**/src/**/*.test.{ts,tsx}",
      "apps/**/src/**/*.test.{ts,tsx}",
      "apps/web/app/**/*.test.{ts,tsx}",
      "apps/web/embed/**/*.test.{ts,tsx}",
      "bench/**/*.test.ts",
      "scripts/**/*.test.ts",
    ],
    exclude: ["**/node_modules/**", "**/build/**", "apps/web/e2e/**"],
    environment: "node",
    testTimeout: 20_000,
    // Database suites migrate and seed in beforeAll; on a loaded 2-core CI box that can pass 10 s.
    hookTimeout: 30_000,
  },
});

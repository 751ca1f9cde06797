import { describe, expect, it } from "vitest";
import { bundleTracker, SIZE_BUDGET_GZIP_BYTES } from "../scripts/bundle.ts";

describe("bundle size", () => {
  it(`stays within ${SIZE_BUDGET_GZIP_BYTES} bytes gzip with every feature, web-vitals included, no zod`, async () => {
    const bundle = await bundleTracker("esm");
    expect(bundle.code).toContain("clientCommonConfig");
    expect(bundle.code).not.toMatch(/ZodError|\$ZodType/);
    expect(bundle.gzip_bytes).toBeLessThanOrEqual(SIZE_BUDGET_GZIP_BYTES);
  });
});

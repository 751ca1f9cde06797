import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { md5Hex } from "./md5.ts";

describe("md5Hex", () => {
  it("matches RFC 1321 vectors and node:crypto on every length across two blocks", () => {
    expect(md5Hex("")).toBe("d41d8cd98f00b204e9800998ecf8427e");
    expect(md5Hex("abc")).toBe("900150983cd24fb0d6963f7d28e17f72");
    for (let n = 0; n < 140; n++) {
      const bytes = crypto.randomBytes(n);
      expect(md5Hex(bytes)).toBe(crypto.createHash("md5").update(bytes).digest("hex"));
    }
  });
});

import { describe, expect, it } from "vitest";
import { base32Decode, base32Encode, hotp, totp, verifyTotp } from "./totp.ts";

// RFC 6238 appendix B, SHA-1 seed "12345678901234567890" (8-digit values, last 6 digits here).
const SECRET = base32Encode(Buffer.from("12345678901234567890"));

describe("TOTP", () => {
  it("matches the RFC 6238 vectors", () => {
    expect(totp(SECRET, 59_000)).toBe("287082");
    expect(totp(SECRET, 1_111_111_109_000)).toBe("081804");
    expect(totp(SECRET, 1_234_567_890_000)).toBe("005924");
    expect(hotp(base32Decode(SECRET), 1)).toBe("287082");
  });

  it("accepts one step either side and nothing further", () => {
    const now = 1_700_000_000_000;
    expect(verifyTotp(SECRET, totp(SECRET, now - 30_000), now)).toBeDefined();
    expect(verifyTotp(SECRET, totp(SECRET, now + 30_000), now)).toBeDefined();
    expect(verifyTotp(SECRET, totp(SECRET, now - 90_000), now)).toBeUndefined();
    expect(verifyTotp(SECRET, "12345", now)).toBeUndefined();
  });
});

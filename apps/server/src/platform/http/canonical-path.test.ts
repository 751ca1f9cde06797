import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { encodingVariant, logicalPath } from "../../test/path-variants.ts";
import { canonicalPath, canonicalUrl } from "./canonical-path.ts";

// What a request target can hold on the wire (Node reads it as latin1: U+0021-U+00FF),
// weighted towards the characters the policy cares about.
const wireChar = fc.oneof(
  fc.integer({ min: 0x21, max: 0xff }).map((n) => String.fromCharCode(n)),
  fc.constantFrom("/", "/", ".", "..", "%2e", "%2F", "%5c", "%25", "%C3%A9", "%0a", "%", "\\"),
);

describe("canonicalPath", () => {
  it.each([
    ["/v1/user/l%6Fgin", "/v1/user/login"],
    ["/v1/user/l%6fgin", "/v1/user/login"],
    ["/v1//user///login", "/v1/user/login"],
    ["/v1/./user/x/../login/", "/v1/user/login"],
    ["/v1/%2e/user/%2E%2E/user/login", "/v1/user/login"],
    ["/../../v1/user/login", "/v1/user/login"],
    ["/", "/"],
    ["//", "/"],
    ["/a%20b", "/a%20b"],
    ["/%25", "/%25"],
    ["/caf%C3%A9", "/caf%C3%A9"],
    ["/V1/User/Login", "/V1/User/Login"],
  ])("%s -> %s", (raw, encoded) => {
    const c = canonicalPath(raw);
    expect(c.ok && c.encoded).toBe(encoded);
  });

  it.each([
    ["/v1/user%2Flogin", "encoded-slash"],
    ["/v1/user%2flogin", "encoded-slash"],
    ["/%2F%2Fevil.com", "encoded-slash"],
    ["/v1\\user", "backslash"],
    ["/%5Cevil.com", "backslash"],
    ["/a%zz", "bad-escape"],
    ["/a%C3", "bad-escape"],
    ["/a%00b", "control"],
    ["/a%0Ab", "control"],
    ["http://evil/v1", "not-origin-form"],
    ["*", "not-origin-form"],
  ])("%s is refused (%s)", (raw, reason) => {
    expect(canonicalPath(raw)).toEqual({ ok: false, reason });
  });

  it("keeps the query as sent and says whether the target changed", () => {
    expect(canonicalUrl("/v1//x?a=%2F//")).toEqual({
      ok: true,
      path: "/v1/x",
      url: "/v1/x?a=%2F//",
      unchanged: false,
    });
    expect(canonicalUrl("/v1/x?a=1")).toMatchObject({ unchanged: true });
    expect(canonicalUrl("/v1/x#frag")).toEqual({ ok: false, reason: "bad-escape" });
  });

  it("is idempotent, and its form never holds //, /\\, dot segments or a trailing slash", () => {
    fc.assert(
      fc.property(fc.string({ unit: wireChar, maxLength: 40 }), (tail) => {
        const c = canonicalPath(`/${tail}`);
        if (!c.ok) return;
        const again = canonicalPath(c.encoded);
        expect(again).toEqual(c);
        expect(c.encoded.startsWith("/")).toBe(true);
        expect(c.encoded).not.toMatch(/\/\/|\\|\/\.\.?(\/|$)/);
        if (c.encoded !== "/") expect(c.encoded.endsWith("/")).toBe(false);
      }),
      { numRuns: 1_000, seed: 15 },
    );
  });

  it("maps every encoding of a path to the path itself, or refuses it", () => {
    fc.assert(
      fc.property(logicalPath(), fc.infiniteStream(fc.nat()), fc.boolean(), (path, choices, allowSlash) => {
        const variant = encodingVariant(path, choices, { encodedSlash: allowSlash });
        const c = canonicalPath(variant.raw);
        if (variant.encodedSlash) expect(c).toMatchObject({ ok: false });
        else expect(c).toMatchObject({ ok: true, encoded: path });
      }),
      { numRuns: 1_000, seed: 15 },
    );
  });
});

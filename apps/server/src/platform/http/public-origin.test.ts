import { describe, expect, test } from "vitest";
import { publicOrigin } from "./public-origin.ts";

describe("publicOrigin", () => {
  const domains = ["meridian.example", "ja.meridian.example", "meridian.example.br"];

  test("a configured regional domain is kept, with its port", () => {
    expect(publicOrigin("https", "ja.meridian.example", domains)).toBe("https://ja.meridian.example");
    expect(publicOrigin("https", "meridian.example.br:8443", domains)).toBe(
      "https://meridian.example.br:8443",
    );
    expect(publicOrigin("https", "JA.Meridian.Example", domains)).toBe("https://JA.Meridian.Example");
  });

  test("a host outside the list falls back to the first domain", () => {
    expect(publicOrigin("https", "evil.example", domains)).toBe("https://meridian.example");
    expect(publicOrigin("https", "meridian.example.evil.example", domains)).toBe("https://meridian.example");
  });

  test("no list configured: the request's host as it is", () => {
    expect(publicOrigin("http", "localhost:3000", [])).toBe("http://localhost:3000");
  });
});

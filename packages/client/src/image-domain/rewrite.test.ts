import { describe, expect, it } from "vitest";
import { allowedImageHosts } from "./hosts.ts";
import { rewriteImageUrls } from "./rewrite.ts";

describe("rewriteImageUrls", () => {
  it("rewrites allowed hosts in nested strings without touching keys or other hosts", () => {
    const input = {
      "https://img.old.com/key": 1,
      list: [{ icon: "https://IMG.old.com/a.png" }, "http://cdn.old.com/b.jpg", 7, null],
      body: '<p><img src="//img.old.com/c.png"></p>',
      other: "https://img.old.com.evil.net/x.png",
      plain: "see img.old.com",
    };
    const out = rewriteImageUrls(input, "img.fast.com", ["img.old.com", "https://cdn.old.com/"]);
    expect(out).toEqual({
      "https://img.old.com/key": 1,
      list: [{ icon: "https://img.fast.com/a.png" }, "http://img.fast.com/b.jpg", 7, null],
      body: '<p><img src="//img.fast.com/c.png"></p>',
      other: "https://img.old.com.evil.net/x.png",
      plain: "see img.old.com",
    });
    expect(input.list[0]).toEqual({ icon: "https://IMG.old.com/a.png" });
  });

  it("merges the server lists with the default host", () => {
    expect(
      allowedImageHosts(
        { foreignDomainList: ["a.com"], internalDomainList: ["https://b.com/", "a.com"] },
        "d.com",
      ),
    ).toEqual(["a.com", "b.com", "d.com"]);
  });
});

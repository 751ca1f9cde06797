import { DOMAIN_CONFIG_LIST_PATH } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { buildTestApp, testConfig } from "../../test/support.ts";
import { createImageRewriter } from "./fast-image.ts";
import { route } from "./route.ts";

const hosts = ["img-a.example.com", "img-b.example.cn", "static.meridian.example"];

describe("createImageRewriter", () => {
  const { rewrite } = createImageRewriter(hosts);

  it("moves URLs on any allowed image host to the fast host, deep in the value", () => {
    const input = {
      logo: "https://img-a.example.com/coins/btc.png",
      list: [{ icon: "//static.meridian.example/x.svg?v=2" }, { icon: "http://img-b.example.cn:8443/y.png" }],
      html: "<p><img src=\"https://img-a.example.com/a.png\"> and <img src='https://img-b.example.cn/b.png'></p>",
      count: 3,
      none: null,
    };
    expect(rewrite(input, "img-b.example.cn")).toEqual({
      logo: "https://img-b.example.cn/coins/btc.png",
      list: [{ icon: "//img-b.example.cn/x.svg?v=2" }, { icon: "http://img-b.example.cn:8443/y.png" }],
      html: "<p><img src=\"https://img-b.example.cn/a.png\"> and <img src='https://img-b.example.cn/b.png'></p>",
      count: 3,
      none: null,
    });
  });

  it("leaves other hosts, look-alike hosts and plain text alone", () => {
    const input = [
      "https://evil.example/https://img-a.example.com/a.png",
      "https://img-a.example.com.evil.example/a.png",
      "https://notimg-a.example.com/a.png",
      "img-a.example.com/a.png",
      "see https://example.org/page",
    ];
    const out = rewrite(input, "static.meridian.example");
    expect(out[0]).toBe("https://evil.example/https://static.meridian.example/a.png");
    expect(out.slice(1)).toEqual(input.slice(1));
  });

  it("does nothing when the fast host is not an allowed image host", () => {
    const input = { logo: "https://img-a.example.com/a.png" };
    expect(rewrite(input, "attacker.example")).toBe(input);
  });

  it("does not mutate its input", () => {
    const input = { logo: "https://img-a.example.com/a.png" };
    rewrite(input, "img-b.example.cn");
    expect(input.logo).toBe("https://img-a.example.com/a.png");
  });
});

describe("x-fast-img-domain on /v1 answers", () => {
  it("rewrites when asked for an allowed host, never on the domain-config call", async () => {
    const app = await buildTestApp({
      config: testConfig({
        IMG_DOMAINS_FOREIGN: "img-a.example.com",
        IMG_DOMAINS_INTERNAL: "img-b.example.cn",
      }),
      routes(api) {
        route(api, {
          method: "GET",
          url: "/v1/test/coin",
          handler: () => ({ icon: "https://img-a.example.com/btc.png" }),
        });
      },
    });
    try {
      const asked = await app.inject({
        url: "/v1/test/coin",
        headers: { "x-fast-img-domain": "img-b.example.cn" },
      });
      expect(asked.json().data.icon).toBe("https://img-b.example.cn/btc.png");
      const viaDefault = await app.inject({
        url: "/v1/test/coin",
        headers: { "x-fast-img-domain": "static.meridian.example" },
      });
      expect(viaDefault.json().data.icon).toBe("https://static.meridian.example/btc.png");
      const notAsked = await app.inject({ url: "/v1/test/coin" });
      expect(notAsked.json().data.icon).toBe("https://img-a.example.com/btc.png");
      const unknown = await app.inject({
        url: "/v1/test/coin",
        headers: { "x-fast-img-domain": "evil.example" },
      });
      expect(unknown.json().data.icon).toBe("https://img-a.example.com/btc.png");
      const config = await app.inject({
        url: DOMAIN_CONFIG_LIST_PATH,
        headers: { "x-fast-img-domain": "img-b.example.cn" },
      });
      expect(config.json().data).toEqual({
        imgDomainConfig: {
          foreignDomainList: ["img-a.example.com"],
          internalDomainList: ["img-b.example.cn"],
        },
      });
    } finally {
      await app.close();
    }
  });
});

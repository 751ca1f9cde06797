// @vitest-environment jsdom
import { FAST_IMAGE_DOMAIN_KEY, PROBE_IMAGE_ATTRIBUTE } from "@meridian/client";
import { afterEach, describe, expect, it, vi } from "vitest";
import { withFastImageDomain } from "../../api/fast-image-header.ts";
import { startImageDomain } from "./image-domain.ts";

function configFetch(foreign: string[], internal: string[], code = "00000") {
  return vi.fn(
    async () =>
      new Response(
        JSON.stringify({
          code,
          msg: "success",
          data: { imgDomainConfig: { foreignDomainList: foreign, internalDomainList: internal } },
        }),
        { headers: { "content-type": "application/json" } },
      ),
  );
}

const failedImage = (img: HTMLImageElement) => img.dispatchEvent(new Event("error"));

afterEach(() => {
  document.body.innerHTML = "";
  localStorage.clear();
});

describe("startImageDomain", () => {
  it("probes the listed hosts, stores the winner and moves images on allowed hosts to it", async () => {
    document.body.innerHTML = `
      <img id="pending" src="https://img-slow.example/a.png">
      <img id="other" src="https://elsewhere.example/b.png">
      <img id="probe" ${PROBE_IMAGE_ATTRIBUTE} src="https://img-slow.example/static/probe.png?t=1">`;
    const fetchMock = configFetch(["img-slow.example"], ["img-fast.example"]);
    const probed: string[] = [];
    const stop = await startImageDomain({
      fetch: fetchMock,
      probe: {
        loadImage: (url) => {
          probed.push(url);
          return url.includes("img-fast")
            ? Promise.resolve()
            : new Promise((resolve) => setTimeout(resolve, 50));
        },
      },
    });
    expect(fetchMock).toHaveBeenCalledWith("/v1/mix/system/getDomainConfigList", expect.anything());
    expect(probed.map((u) => new URL(u).host).sort()).toEqual(["img-fast.example", "img-slow.example"]);
    expect(localStorage.getItem(FAST_IMAGE_DOMAIN_KEY)).toBe("img-fast.example");

    // Not loaded yet (jsdom never loads images): moved at once.
    expect(document.getElementById("pending")?.getAttribute("src")).toBe("https://img-fast.example/a.png");
    expect(document.getElementById("other")?.getAttribute("src")).toBe("https://elsewhere.example/b.png");
    const probe = document.getElementById("probe") as HTMLImageElement;
    expect(probe.getAttribute("src")).toBe("https://img-slow.example/static/probe.png?t=1");

    // A later image on an allowed host that fails to load is moved too.
    const late = document.createElement("img");
    Object.defineProperty(late, "complete", { value: true });
    late.src = "https://img.meridian-static.com/c.png";
    document.body.append(late);
    failedImage(late);
    expect(late.getAttribute("src")).toBe("https://img-fast.example/c.png");

    stop();
    const after = document.createElement("img");
    Object.defineProperty(after, "complete", { value: true });
    after.src = "https://img-slow.example/d.png";
    document.body.append(after);
    failedImage(after);
    expect(after.getAttribute("src")).toBe("https://img-slow.example/d.png");
  });

  it("uses a single listed host without probing", async () => {
    const loadImage = vi.fn(() => Promise.resolve());
    await startImageDomain({ fetch: configFetch([], ["localhost:3000"]), probe: { loadImage } });
    expect(loadImage).not.toHaveBeenCalled();
    expect(localStorage.getItem(FAST_IMAGE_DOMAIN_KEY)).toBe("localhost:3000");
  });

  it("leaves images alone and warns when every probe fails or the config call fails", async () => {
    document.body.innerHTML = `<img id="pending" src="https://img-a.example/a.png">`;
    const warn = vi.fn();
    const stop = await startImageDomain({
      fetch: configFetch(["img-a.example", "img-b.example"], []),
      probe: { loadImage: () => Promise.reject(new Error("offline")), storage: null },
      logger: { warn },
    });
    stop();
    expect(document.getElementById("pending")?.getAttribute("src")).toBe("https://img-a.example/a.png");
    expect(warn).toHaveBeenCalledTimes(1);

    await startImageDomain({ fetch: configFetch([], [], "50000"), logger: { warn } });
    await startImageDomain({
      fetch: vi.fn(() => Promise.reject(new TypeError("network"))),
      logger: { warn },
    });
    expect(warn).toHaveBeenCalledTimes(3);
  });
});

describe("withFastImageDomain", () => {
  const request = {
    method: "GET" as const,
    api: "v1/x",
    path: "/v1/x",
    url: "/v1/x",
    body: undefined,
    headers: {},
    requestId: "r",
    time: 1,
  };

  it("adds x-fast-img-domain with the stored host to the signing headers", async () => {
    localStorage.setItem(FAST_IMAGE_DOMAIN_KEY, "img-fast.example");
    const sign = vi.fn(async () => ({ "device-sign": "s" }));
    const headers = await withFastImageDomain(sign)(request);
    expect(headers).toEqual({ "device-sign": "s", "x-fast-img-domain": "img-fast.example" });
    expect(sign).toHaveBeenCalledWith(request);
  });

  it("adds nothing before a host is stored", async () => {
    expect(await withFastImageDomain()(request)).toBeUndefined();
    expect(await withFastImageDomain(async () => ({ a: "1" }))(request)).toEqual({ a: "1" });
  });
});

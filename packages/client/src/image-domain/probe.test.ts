import { describe, expect, it, vi } from "vitest";
import { DEFAULT_IMAGE_HOST } from "./hosts.ts";
import { FAST_IMAGE_DOMAIN_KEY, probeFastestImageDomain, readFastImageDomain } from "./probe.ts";

function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => {
      map.set(k, v);
    },
  };
}

const delay = (ms: number, fail = false) =>
  new Promise<void>((resolve, reject) => setTimeout(() => (fail ? reject(new Error("x")) : resolve()), ms));

describe("probeFastestImageDomain", () => {
  it("loads a cache-busted https test image from every host; the first to answer wins and is stored", async () => {
    const storage = memoryStorage();
    const urls: string[] = [];
    const loadImage = vi.fn((url: string) => {
      urls.push(url);
      if (url.includes("slow.example")) return delay(30);
      if (url.includes("broken.example")) return delay(1, true);
      return delay(5);
    });
    const host = await probeFastestImageDomain(["slow.example", "https://fast.example/", "broken.example"], {
      loadImage,
      storage,
    });
    expect(host).toBe("fast.example");
    expect(storage.map.get(FAST_IMAGE_DOMAIN_KEY)).toBe("fast.example");
    expect(readFastImageDomain(storage)).toBe("fast.example");
    expect(urls).toHaveLength(3);
    for (const url of urls) expect(url).toMatch(/^https:\/\/[a-z.]+\/static\/probe\.png\?t=[a-z0-9]+$/);
    expect(new Set(urls.map((u) => u.split("?t=")[1])).size).toBe(3);
  });

  it("uses a single candidate without probing", async () => {
    const loadImage = vi.fn(() => Promise.resolve());
    const storage = memoryStorage();
    await expect(probeFastestImageDomain(["only.example"], { loadImage, storage })).resolves.toBe(
      "only.example",
    );
    expect(loadImage).not.toHaveBeenCalled();
    expect(storage.map.get(FAST_IMAGE_DOMAIN_KEY)).toBe("only.example");
  });

  it("yields the default image host for an empty list", async () => {
    const loadImage = vi.fn(() => Promise.resolve());
    await expect(probeFastestImageDomain([], { loadImage, storage: null })).resolves.toBe(DEFAULT_IMAGE_HOST);
    expect(loadImage).not.toHaveBeenCalled();
  });

  it("rejects when every probe fails or times out", async () => {
    vi.useFakeTimers();
    try {
      const loadImage = (url: string) =>
        url.includes("a.example") ? delay(1, true) : new Promise<void>(() => {});
      const result = probeFastestImageDomain(["a.example", "b.example"], {
        loadImage,
        timeoutMs: 1000,
        storage: null,
      });
      const assertion = expect(result).rejects.toThrow(/No image domain answered/);
      await vi.advanceTimersByTimeAsync(1000);
      await assertion;
    } finally {
      vi.useRealTimers();
    }
  });
});

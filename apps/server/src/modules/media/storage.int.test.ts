import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mediaConfigFromEnv } from "./config.ts";
import { checkKey, diskStorage, s3ObjectUrl, s3Storage } from "./storage.ts";

const KEY = `${"ab12".repeat(8)}-256.webp`;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "media-store-"));
let server: S3rver;
let endpoint = "";

// s3rver checks Signature Version 4 with these fixed credentials.
const creds = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

beforeAll(async () => {
  server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: path.join(dir, "s3"),
    configureBuckets: [{ name: "media-test" }],
  });
  const info = await server.run();
  endpoint = `http://127.0.0.1:${info.port}`;
});
afterAll(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("media storage", () => {
  it("stores and reads back through a local S3-compatible server with signed requests", async () => {
    const store = s3Storage({
      endpoint,
      bucket: "media-test",
      region: "us-east-1",
      prefix: "media/",
      pathStyle: true,
      ...creds,
    });
    expect(await store.get(KEY)).toBeUndefined();
    await store.put(KEY, Buffer.from("webp bytes"), "image/webp");
    expect((await store.get(KEY))?.toString()).toBe("webp bytes");
    // The object sits under the prefix, with the long-lived cache header set on upload.
    const head = await fetch(`${endpoint}/media-test/media/${KEY}`, { method: "HEAD" }).catch(
      () => undefined,
    );
    if (head?.ok) expect(head.headers.get("cache-control")).toContain("immutable");
  });

  it("signs every request with Signature Version 4; an unknown key is refused by the server", async () => {
    const seen: Request[] = [];
    const spy = s3Storage({
      endpoint,
      bucket: "media-test",
      region: "eu-west-3",
      prefix: "media/",
      pathStyle: true,
      ...creds,
      fetch: async (input) => {
        seen.push(input as Request);
        return new Response(null, { status: 200 });
      },
    });
    await spy.put(KEY, Buffer.from("x"), "image/webp");
    const auth = seen[0]?.headers.get("authorization") ?? "";
    expect(auth).toMatch(
      /^AWS4-HMAC-SHA256 Credential=S3RVER\/\d{8}\/eu-west-3\/s3\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[a-f0-9]{64}$/,
    );
    expect(seen[0]?.headers.get("x-amz-date")).toMatch(/^\d{8}T\d{6}Z$/);
    const stranger = s3Storage({
      endpoint,
      bucket: "media-test",
      region: "us-east-1",
      prefix: "media/",
      pathStyle: true,
      accessKeyId: "NOT-A-KEY",
      secretAccessKey: "wrong-secret",
    });
    await expect(stranger.put(KEY, Buffer.from("x"), "image/webp")).rejects.toThrow(/403/);
  });

  it("keeps keys inside their directory on disk and in the bucket", async () => {
    const disk = diskStorage(path.join(dir, "disk"));
    await disk.put(KEY, Buffer.from("on disk"), "image/webp");
    expect((await disk.get(KEY))?.toString()).toBe("on disk");
    for (const bad of [
      "../../etc/passwd",
      `../${KEY}`,
      `${KEY}/..`,
      "a/b.webp",
      `${"AB12".repeat(8)}-256.webp`,
    ]) {
      expect(() => checkKey(bad)).toThrow(/refused key/);
      await expect(disk.get(bad)).rejects.toThrow(/refused key/);
    }
    expect(
      s3ObjectUrl(
        { endpoint: "https://s3.eu-central-1.amazonaws.com", bucket: "b", prefix: "m/", pathStyle: false },
        KEY,
      ),
    ).toBe(`https://b.s3.eu-central-1.amazonaws.com/m/${KEY}`);
  });

  it("reads its settings from the environment: disk under the data dir unless a bucket is named", () => {
    expect(mediaConfigFromEnv({}, "/srv/data")).toEqual({ kind: "disk", dir: "/srv/data/media" });
    const s3 = mediaConfigFromEnv(
      {
        MEDIA_S3_BUCKET: "pics",
        MEDIA_S3_ENDPOINT: "http://127.0.0.1:9000",
        MEDIA_S3_ACCESS_KEY_ID: "k",
        MEDIA_S3_SECRET_ACCESS_KEY: "s",
      },
      "/srv/data",
    );
    expect(s3).toMatchObject({
      kind: "s3",
      bucket: "pics",
      pathStyle: true,
      prefix: "media/",
      region: "us-east-1",
    });
    expect(() => mediaConfigFromEnv({ MEDIA_S3_BUCKET: "pics" }, "/d")).toThrow(/ACCESS_KEY_ID/);
  });
});

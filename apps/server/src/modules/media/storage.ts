import fs from "node:fs/promises";
import path from "node:path";
import { AwsClient } from "aws4fetch";

/**
 * Where encoded variants live: a directory under the data dir (default) or an
 * S3-compatible bucket (docs/operations.md "Image storage"). Keys are content-addressed
 * file names (`<32 hex>-<width>.webp`): a key never names two different contents, so a
 * write never needs to replace anything, and no key can climb out of its directory.
 */
export interface MediaStorage {
  readonly kind: "disk" | "s3";
  put(key: string, body: Buffer, contentType: string): Promise<void>;
  /** The stored bytes, or undefined when the key is absent. */
  get(key: string): Promise<Buffer | undefined>;
}

const KEY = /^[a-f0-9]{32}-\d{2,4}\.webp$/;

/** Refuses any key that is not a content-addressed file name (no separators, no dots but the extension). */
export function checkKey(key: string): string {
  if (!KEY.test(key)) throw new Error(`media storage: refused key ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}

export function diskStorage(dir: string): MediaStorage {
  const root = path.resolve(dir);
  // Two levels of fan-out keep directories small: ab/cd/abcd...-256.webp.
  const fileOf = (key: string) => path.join(root, key.slice(0, 2), key.slice(2, 4), checkKey(key));
  return {
    kind: "disk",
    async put(key, body) {
      const file = fileOf(key);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // Written aside, then renamed: a reader never sees half a file.
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      await fs.writeFile(tmp, body);
      await fs.rename(tmp, file);
    },
    async get(key) {
      try {
        return await fs.readFile(fileOf(key));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
        throw error;
      }
    },
  };
}

export interface S3Settings {
  /** `https://s3.eu-central-1.amazonaws.com`, `http://127.0.0.1:9000`, ... */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Key prefix inside the bucket (`media/`). */
  prefix: string;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), what most self-hosted servers want. */
  pathStyle: boolean;
  /** Injected in tests; the global fetch otherwise. */
  fetch?: typeof fetch;
}

/** The object URL of a key: path-style or virtual-hosted. */
export function s3ObjectUrl(
  s: Pick<S3Settings, "endpoint" | "bucket" | "prefix" | "pathStyle">,
  key: string,
) {
  const base = new URL(s.endpoint);
  const objectPath = `${s.prefix}${checkKey(key)}`;
  if (s.pathStyle) return `${base.origin}/${s.bucket}/${objectPath}`;
  return `${base.protocol}//${s.bucket}.${base.host}/${objectPath}`;
}

/** An S3-compatible bucket, requests signed with AWS Signature Version 4 (aws4fetch). */
export function s3Storage(s: S3Settings): MediaStorage {
  const client = new AwsClient({
    accessKeyId: s.accessKeyId,
    secretAccessKey: s.secretAccessKey,
    service: "s3",
    region: s.region,
    retries: 2,
  });
  const send = async (url: string, init: RequestInit): Promise<Response> => {
    const signed = await client.sign(url, init);
    return (s.fetch ?? fetch)(signed);
  };
  return {
    kind: "s3",
    async put(key, body, contentType) {
      const response = await send(s3ObjectUrl(s, key), {
        method: "PUT",
        body: new Uint8Array(body),
        headers: {
          "content-type": contentType,
          "cache-control": "public, max-age=31536000, immutable",
        },
      });
      if (!response.ok) throw new Error(`media storage: S3 PUT answered ${response.status}`);
      await response.arrayBuffer();
    },
    async get(key) {
      const response = await send(s3ObjectUrl(s, key), { method: "GET" });
      if (response.status === 404) {
        await response.arrayBuffer();
        return undefined;
      }
      if (!response.ok) throw new Error(`media storage: S3 GET answered ${response.status}`);
      return Buffer.from(await response.arrayBuffer());
    },
  };
}

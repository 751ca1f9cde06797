import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import zlib from "node:zlib";
import {
  Code,
  MEDIA_API,
  MEDIA_MAX_BYTES,
  type MediaAsset,
  type MediaLinksResult,
  SignMode,
} from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { routeTable } from "../../platform/http/route-table.ts";
import { accountsTestApp, TEST_HOST } from "../../test/accounts.ts";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { mediaImages, mediaModule } from "./index.ts";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "media-int-"));
let app: FastifyInstance;
let db: PlatformDb;
let admin: string;
let user: string;

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A multipart body by hand, so the test controls every byte (file name and declared type included). */
function multipart(fields: Record<string, string>, file?: { name: string; type: string; body: Buffer }) {
  const boundary = `----media${Date.now().toString(16)}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(fields))
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  if (file !== undefined) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.body,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

async function upload(
  body: Buffer,
  options: { role?: string; name?: string; type?: string; cookie?: string } = {},
): Promise<{ status: number; code: string; msg: string; data: MediaAsset }> {
  const { payload, contentType } = multipart(
    { role: options.role ?? "logo" },
    { name: options.name ?? "picture.png", type: options.type ?? "image/png", body },
  );
  const res = await postUpload(contentType, payload, options.cookie ?? admin);
  return { status: res.statusCode, ...res.json() };
}

/** A POST to the upload route with any body, as an administrator by default. */
const postUpload = (contentType: string, payload: string | Buffer | Readable, cookie = admin) =>
  app.inject({
    method: "POST",
    url: MEDIA_API.upload,
    headers: { host: TEST_HOST, origin: `http://${TEST_HOST}`, cookie, "content-type": contentType },
    payload,
  });

const fetchFile = (url: string) => app.inject({ method: "GET", url, headers: { host: TEST_HOST } });

/** A photo-like PNG with EXIF, XMP and an ICC profile attached. */
async function pngWithMetadata(width: number, height: number): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .composite([
      {
        input: Buffer.from(
          `<svg width="${width}" height="${height}"><circle cx="50%" cy="50%" r="30%" fill="#08f"/></svg>`,
        ),
      },
    ])
    .withMetadata({ exif: { IFD0: { Copyright: "secret-owner", Artist: "GPS-leaker" } } })
    .withXmp(
      '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>private</rdf:Description></rdf:RDF></x:xmpmeta>',
    )
    .png()
    .toBuffer();
}

/** Sets the IHDR size of a PNG and fixes its CRC: a tiny file that claims a huge image. */
function claimSize(png: Buffer, width: number, height: number): Buffer {
  const out = Buffer.from(png);
  out.writeUInt32BE(width, 16);
  out.writeUInt32BE(height, 20);
  out.writeUInt32BE(zlib.crc32(out.subarray(12, 29)), 29);
  return out;
}

for (const target of reopenableDbTargets("media"))
  describe(`upload pipeline (${target.name})`, () => {
    let cleanup: () => Promise<void> = async () => undefined;
    beforeAll(async () => {
      process.env.MEDIA_DIR = path.join(dir, target.name);
      const opened = await target.open();
      cleanup = opened.cleanup;
      db = opened.db();
      const built = await accountsTestApp({ db, modules: [mediaModule] });
      app = built.app;
      admin = await built.login("admin");
      user = await built.login("user");
    });
    afterAll(async () => {
      await app?.close();
      await db?.close();
      await cleanup();
      delete process.env.MEDIA_DIR;
    });

    it("turns a PNG with metadata into WebP variants without any of it, served immutable", async () => {
      const source = await pngWithMetadata(600, 400);
      expect((await sharp(source).metadata()).exif).toBeDefined();
      const res = await upload(source, { name: "../../etc/passwd.png" });
      expect(res.status).toBe(200);
      expect(res.code).toBe(Code.OK);
      expect(res.data.variants.map((v) => v.width)).toEqual([64, 128, 256]);
      expect(res.data.image.srcset).toContain(" 64w");
      expect(res.data.image.src).toMatch(/^\/v1\/media\/[a-f0-9]{32}-256\.webp$/);
      for (const v of res.data.variants) {
        const file = await fetchFile(v.url);
        expect(file.statusCode).toBe(200);
        expect(file.headers["content-type"]).toBe("image/webp");
        expect(file.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
        const meta = await sharp(file.rawPayload).metadata();
        expect(meta.format).toBe("webp");
        expect(meta.width).toBe(v.width);
        expect(meta.exif).toBeUndefined();
        expect(meta.xmp).toBeUndefined();
        expect(meta.icc).toBeUndefined();
        expect(file.rawPayload.includes(Buffer.from("secret-owner"))).toBe(false);
      }
      // The client's file name never reaches the disk: only content-addressed names exist.
      const written = fs.readdirSync(dir, { recursive: true }).map(String);
      expect(written.some((f) => f.includes("passwd"))).toBe(false);
      // Same bytes, same asset.
      expect((await upload(source)).data.id).toBe(res.data.id);
    });

    it("turns a JPEG upright (EXIF orientation) and drops the EXIF, in the cover widths", async () => {
      const jpeg = await sharp({ create: { width: 1200, height: 800, channels: 3, background: "#345" } })
        .jpeg()
        .withMetadata({ orientation: 6 })
        .toBuffer();
      const res = await upload(jpeg, { role: "cover", name: "cover.gif", type: "image/gif" });
      expect(res.status).toBe(200);
      expect(res.data.variants.map((v) => v.width)).toEqual([480]);
      // Orientation 6 means rotated a quarter turn: 1200 x 800 is shown 800 x 1200.
      expect(res.data.width).toBe(800);
      expect(res.data.height).toBe(1200);
      const meta = await sharp((await fetchFile(res.data.image.src)).rawPayload).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
    });

    it("refuses what is not an image by its bytes, whatever its name and type say", async () => {
      const text = await upload(Buffer.from("hello, not an image at all"), {
        name: "x.png",
        type: "image/png",
      });
      expect(text.status).toBe(415);
      expect(text.code).toBe(Code.UNSUPPORTED_MEDIA_TYPE);
      const html = await upload(Buffer.from("<html><script>alert(1)</script></html>"), { name: "a.jpg" });
      expect(html.status).toBe(415);
    });

    it("refuses a PNG header followed by a script", async () => {
      const polyglot = Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        Buffer.from("<script>fetch('/v1/user/logout',{method:'POST'})</script>".repeat(4)),
      ]);
      const res = await upload(polyglot);
      expect(res.status).toBe(422);
      expect(res.code).toBe(Code.IMAGE_UNREADABLE);
    });

    it("refuses SVG, with or without an XML prolog", async () => {
      for (const svg of [
        '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><script>alert(1)</script><rect width="100" height="100"/></svg>',
        '<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      ]) {
        const res = await upload(Buffer.from(svg), { name: "logo.png", type: "image/png" });
        expect(res.status).toBe(415);
        expect(res.msg).toMatch(/SVG/);
      }
    });

    it("refuses a decompression bomb from its header, before decoding", async () => {
      const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#000" } })
        .png()
        .toBuffer();
      const bomb = claimSize(small, 30_000, 30_000);
      expect(bomb.length).toBeLessThan(2000);
      const res = await upload(bomb);
      expect(res.status).toBe(413);
      expect(res.code).toBe(Code.IMAGE_TOO_MANY_PIXELS);
    });

    it("refuses a file over the size limit with 413 in the envelope", async () => {
      const big = Buffer.concat([await pngWithMetadata(64, 64), Buffer.alloc(MEDIA_MAX_BYTES + 1024)]);
      const res = await upload(big);
      expect(res.status).toBe(413);
      expect(res.code).toBe(Code.BODY_TOO_LARGE);
      // Streamed without a declared length: the multipart parser's own file limit stops it.
      const { payload, contentType } = multipart(
        { role: "logo" },
        { name: "big.png", type: "image/png", body: big },
      );
      const streamed = await postUpload(
        contentType,
        Readable.from([payload.subarray(0, 1 << 20), payload.subarray(1 << 20)]),
      );
      expect(streamed.statusCode).toBe(413);
      expect(streamed.json()).toMatchObject({ code: Code.BODY_TOO_LARGE });
    });

    it("refuses tiny images, unknown roles, other content types and non-administrators", async () => {
      const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
        .png()
        .toBuffer();
      expect((await upload(tiny)).status).toBe(422);
      const png = await pngWithMetadata(100, 100);
      const role = await upload(png, { role: "banner" });
      expect(role.status).toBe(400);
      expect(role.code).toBe(Code.VALIDATION_FAILED);
      expect((await upload(png, { cookie: user })).code).toBe(Code.FORBIDDEN);
      expect((await upload(png, { cookie: "" })).code).not.toBe(Code.OK);
      const json = await postUpload("application/json", "{}");
      expect(json.statusCode).toBe(415);
    });

    it("answers a multipart body with no boundary, cut short or malformed 400 in the envelope", async () => {
      const png = await pngWithMetadata(100, 100);
      const { payload, contentType } = multipart(
        { role: "logo" },
        { name: "a.png", type: "image/png", body: png },
      );
      const bad: Array<[string, string | Buffer]> = [
        ["multipart/form-data", payload],
        ["multipart/form-data; boundary=", payload],
        [contentType, payload.subarray(0, payload.length - 40)],
        [contentType, payload.subarray(0, 60)],
        [contentType, Buffer.from("--nothing-like-the-boundary\r\n\r\n")],
        [
          contentType,
          Buffer.from(
            payload.toString("latin1").replace("Content-Disposition", "Content Disposition"),
            "latin1",
          ),
        ],
      ];
      for (const [type, body] of bad) {
        const res = await postUpload(type, body);
        expect(res.statusCode, `${type} ${body.length}`).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, `${type} ${body.length}`).toBeLessThan(500);
        expect(res.json().code, `${type} ${body.length}`).not.toBe(Code.OK);
      }
      // The server is fine after: a good upload still works.
      expect((await upload(png)).status).toBe(200);
    });

    it("serves only content-addressed names", async () => {
      expect((await fetchFile(`/v1/media/${"a".repeat(32)}-64.webp`)).statusCode).toBe(404);
      for (const bad of [
        "/v1/media/passwd",
        "/v1/media/..%2f..%2fetc%2fpasswd",
        `/v1/media/${"a".repeat(32)}-64.svg`,
      ]) {
        const res = await fetchFile(bad);
        expect(res.statusCode).toBeGreaterThanOrEqual(400);
        expect(res.statusCode).toBeLessThan(500);
        expect(res.headers["content-type"]).toMatch(/json/);
      }
    });

    it("links images to an item by role and answers srcset", async () => {
      const logo = (await upload(await pngWithMetadata(300, 300))).data;
      const shot = (await upload(await pngWithMetadata(500, 900), { role: "screenshot" })).data;
      const put = (body: unknown) =>
        app.inject({
          method: "PUT",
          url: "/v1/admin/media/links/airdrop/notcoin",
          headers: {
            host: TEST_HOST,
            origin: `http://${TEST_HOST}`,
            cookie: admin,
            "content-type": "application/json",
          },
          payload: JSON.stringify(body),
        });
      const ok = await put({ logo: logo.id, cover: null, screenshots: [shot.id] });
      expect(ok.statusCode).toBe(200);
      const data = (ok.json() as { data: MediaLinksResult }).data;
      expect(data.links).toEqual({ logo: logo.id, cover: null, screenshots: [shot.id] });
      expect(data.images.logo?.srcset.split(", ")).toHaveLength(3);
      expect(data.images.screenshots[0]?.srcset).toContain("480w");
      // A screenshot is not a logo; an id never uploaded is not found.
      expect((await put({ logo: shot.id, cover: null, screenshots: [] })).statusCode).toBe(422);
      expect((await put({ logo: "f".repeat(32), cover: null, screenshots: [] })).statusCode).toBe(404);
      expect((await put({ logo: "../../x", cover: null, screenshots: [] })).statusCode).toBe(400);
    });

    it("declares its sign modes and admin guards in the route table", () => {
      const table = routeTable(app);
      const uploadRoute = table.find((r) => r.url === MEDIA_API.upload && r.method === "POST");
      expect(uploadRoute?.declaredSign).toBe(SignMode.PATH_TIME_TRACE);
      expect(uploadRoute?.admin).toBe(true);
      const links = table.find((r) => r.url === MEDIA_API.links && r.method === "PUT");
      expect(links?.declaredSign).toBe(SignMode.PATH_TIME_TRACE_BODY);
      expect(links?.admin).toBe(true);
    });

    it("gives an item without images generated artwork, rendered by the pipeline on first request", async () => {
      const images = mediaImages(app);
      const [card] = await images.logos("app", [{ slug: "fresh-game", name: "Fresh Game", category: 2 }]);
      const logo = card?.images?.logo;
      expect(logo?.srcset.split(", ").map((s) => s.split(" ")[1])).toEqual(["64w", "128w", "256w"]);
      const page = await images.full("app", { slug: "fresh-game", name: "Fresh Game", category: 2 });
      expect(page.images?.screenshots).toHaveLength(5);
      expect(page.images?.logo?.src).toBe(logo?.src);
      const shot = page.images?.screenshots[1];
      const res = await fetchFile(shot?.src ?? "");
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("image/webp");
      const meta = await sharp(res.rawPayload).metadata();
      expect([meta.width, meta.height]).toEqual([shot?.width, shot?.height]);
      // Rendered once: the source is dropped and every width is now in the store.
      const row = await db.get<{ source_svg: string | null }>(
        "SELECT source_svg FROM media_assets WHERE id = ?",
        [(shot?.src ?? "").slice(10, 42)],
      );
      expect(row?.source_svg).toBeNull();
      // An airdrop gets a logo and a cover; an item with an upload keeps it.
      const drop = await images.full("airdrop", {
        slug: "fresh-drop",
        name: "Fresh",
        ticker: "FRSH",
        chain: "TON",
      });
      expect(drop.images?.cover?.srcset).toContain("1600w");
      const kept = await images.full("airdrop", {
        slug: "notcoin",
        name: "Notcoin",
        ticker: "NOT",
        chain: "TON",
      });
      expect(kept.images?.cover).toBeNull();
    });
  });

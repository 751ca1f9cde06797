/**
 * bench:media — what the image pipeline costs (modules/media).
 *
 * - upload: a 4000 x 3000 photo-like JPEG (12 MP) checked and encoded into the cover
 *   widths (480/960/1600 WebP), and a 1024 x 1024 PNG logo into 64/128/256;
 * - refuse: a 1.5 KB PNG whose header claims 30,000 x 30,000 pixels (a decompression
 *   bomb), refused from the header;
 * - render: generated demo artwork (a logo, a cover, a screenshot) rendered from SVG on
 *   first request.
 * Each case runs MEDIA_RUNS times after a warm-up; medians are kept. The last line is
 * one JSON object.
 */
import os from "node:os";
import zlib from "node:zlib";
import sharp from "sharp";
import { coverSvg, logoSvg } from "../apps/server/src/modules/media/artwork/logo.ts";
import { screenshotSvgs } from "../apps/server/src/modules/media/artwork/screens.ts";
import { processUpload, renderSvg } from "../apps/server/src/modules/media/pipeline.ts";

const RUNS = Number(process.env.MEDIA_RUNS ?? 5);

async function median(fn: () => Promise<unknown>): Promise<number> {
  await fn().catch(() => undefined);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn().catch(() => undefined);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return Number((times[Math.floor(times.length / 2)] ?? 0).toFixed(1));
}

// A photo-like picture: noise under gradients, so the encoder has real detail to keep.
const noise = Buffer.alloc(400 * 300 * 3);
for (let i = 0; i < noise.length; i++) noise[i] = (i * 2654435761) % 251;
const photo = await sharp(noise, { raw: { width: 400, height: 300, channels: 3 } })
  .resize(4000, 3000, { kernel: "cubic" })
  .jpeg({ quality: 88 })
  .toBuffer();
const logoPng = await sharp(Buffer.from(logoSvg("bench", "Bench")), { density: 288 })
  .resize(1024)
  .png()
  .toBuffer();
const small = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#000" } })
  .png()
  .toBuffer();
const bomb = Buffer.from(small);
bomb.writeUInt32BE(30_000, 16);
bomb.writeUInt32BE(30_000, 20);
bomb.writeUInt32BE(zlib.crc32(bomb.subarray(12, 29)), 29);

const coverOut = await processUpload(photo, "cover");
const result = {
  bench: "media",
  runs: RUNS,
  uploadPhotoMs: await median(() => processUpload(photo, "cover")),
  photoBytes: photo.length,
  photoVariantBytes: coverOut.variants.map((v) => v.body.length),
  uploadLogoMs: await median(() => processUpload(logoPng, "logo")),
  refuseBombMs: await median(() => processUpload(bomb, "logo")),
  renderLogoMs: await median(() => renderSvg(logoSvg("notcoin", "Notcoin", "TON"), "logo", 256)),
  renderCoverMs: await median(() => renderSvg(coverSvg("notcoin", "Notcoin", "NOT", "TON"), "cover", 1600)),
  renderScreenshotMs: await median(() =>
    renderSvg(screenshotSvgs("wallet", "Wallet", 3)[0] ?? "", "screenshot", 720),
  ),
  loadAverage: Number((os.loadavg()[0] ?? 0).toFixed(1)),
};
console.log(
  `upload 12 MP JPEG -> 3 WebP: ${result.uploadPhotoMs} ms (${result.photoBytes} B -> ${result.photoVariantBytes.join("/")} B)`,
);
console.log(`upload logo PNG: ${result.uploadLogoMs} ms; refuse bomb: ${result.refuseBombMs} ms`);
console.log(
  `render generated logo ${result.renderLogoMs} ms, cover ${result.renderCoverMs} ms, screenshot ${result.renderScreenshotMs} ms`,
);
console.log(JSON.stringify(result));

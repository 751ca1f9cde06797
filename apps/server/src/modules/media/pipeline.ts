import crypto from "node:crypto";
import { Code, MEDIA_MAX_PIXELS, MEDIA_MIN_SIDE, MEDIA_WIDTHS, type MediaRole } from "@meridian/contracts";
import sharp, { type Metadata, type Sharp } from "sharp";
import { AppError } from "../../platform/errors.ts";

/**
 * The image pipeline (docs/product.md "Images"): the type is read from the first bytes,
 * never from the name or the declared Content-Type; the image is decoded with a pixel
 * cap, turned upright, stripped of every metadata block (EXIF, XMP, ICC, comments), and
 * re-encoded as WebP in the role's widths. Only re-encoded pixels are ever stored or
 * served, so a file that is also a script or an HTML page (a polyglot) loses everything
 * but its pixels. SVG is refused: it is a document that can carry script.
 */

/** Bumped when the encoding changes: ids (and so URLs) change with it, caches never serve stale bytes. */
export const PIPELINE_VERSION = "webp-q80-v1";

export type SniffedType = "png" | "jpeg" | "webp" | "gif" | "avif" | "svg" | "unknown";

const startsWith = (bytes: Uint8Array, sig: readonly number[], at = 0) =>
  bytes.length >= at + sig.length && sig.every((b, i) => bytes[at + i] === b);

const ascii = (bytes: Uint8Array, from: number, to: number) =>
  Buffer.from(bytes.subarray(from, Math.min(to, bytes.length))).toString("latin1");

/** The file type its magic bytes say, whatever it is called. */
export function sniffType(bytes: Uint8Array): SniffedType {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (ascii(bytes, 0, 4) === "RIFF" && ascii(bytes, 8, 12) === "WEBP") return "webp";
  if (ascii(bytes, 0, 6) === "GIF87a" || ascii(bytes, 0, 6) === "GIF89a") return "gif";
  if (ascii(bytes, 4, 8) === "ftyp" && /^(avif|avis)$/.test(ascii(bytes, 8, 12))) return "avif";
  // SVG is text: an XML prolog, a comment or the svg element within the first bytes.
  const head = ascii(bytes, 0, 1024)
    .replace(/^\uFEFF/, "")
    .trimStart()
    .toLowerCase();
  if (head.startsWith("<?xml") || head.startsWith("<svg") || head.startsWith("<!--") || head.includes("<svg"))
    return "svg";
  return "unknown";
}

/** Types accepted for upload, each with the format name sharp must agree on after decoding. */
const ACCEPTED: Partial<Record<SniffedType, string>> = {
  png: "png",
  jpeg: "jpeg",
  webp: "webp",
  gif: "gif",
  avif: "heif",
};

export interface EncodedVariant {
  width: number;
  height: number;
  body: Buffer;
}

export interface ProcessedImage {
  id: string;
  role: MediaRole;
  width: number;
  height: number;
  variants: EncodedVariant[];
}

/** Content address of an image: its source bytes, its role and the pipeline version. */
export function assetIdOf(source: Uint8Array, role: MediaRole): string {
  return crypto
    .createHash("sha256")
    .update(`${PIPELINE_VERSION}\0${role}\0`)
    .update(source)
    .digest("hex")
    .slice(0, 32);
}

/** The widths a role is encoded at for a source `width` pixels wide: never upscaled, at least one. */
export function widthsFor(role: MediaRole, width: number): number[] {
  const fitting = MEDIA_WIDTHS[role].filter((w) => w <= width);
  const smallest = MEDIA_WIDTHS[role][0] ?? width;
  return fitting.length > 0 ? fitting : [Math.min(width, smallest)];
}

const refused = (msg: string) => new AppError(Code.UNSUPPORTED_MEDIA_TYPE, msg, { status: 415 });
const unreadable = () =>
  new AppError(Code.IMAGE_UNREADABLE, "The file does not decode as the image its header claims", {
    status: 422,
  });

/** Checks an upload's type and size in pixels; answers what sharp reads from its header. */
export async function inspectUpload(bytes: Uint8Array): Promise<{ width: number; height: number }> {
  const type = sniffType(bytes);
  if (type === "svg") throw refused("SVG images are not accepted; upload a PNG, JPEG, WebP, GIF or AVIF");
  const expected = ACCEPTED[type];
  if (expected === undefined) throw refused("Not an image: upload a PNG, JPEG, WebP, GIF or AVIF");
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw unreadable();
  }
  if (meta.format !== expected || meta.width === undefined || meta.height === undefined) throw unreadable();
  // The header's size, checked before any pixel is decoded: a bomb is refused cheaply.
  if (meta.width * meta.height > MEDIA_MAX_PIXELS)
    throw new AppError(
      Code.IMAGE_TOO_MANY_PIXELS,
      `The image is ${meta.width} x ${meta.height} pixels; at most ${MEDIA_MAX_PIXELS.toLocaleString("en")} pixels are accepted`,
      { status: 413 },
    );
  if (Math.min(meta.width, meta.height) < MEDIA_MIN_SIDE)
    throw new AppError(
      Code.VALIDATION_FAILED,
      `The image must be at least ${MEDIA_MIN_SIDE} pixels on each side`,
      {
        status: 422,
      },
    );
  return { width: meta.width, height: meta.height };
}

const tooManyPixels = () =>
  new AppError(Code.IMAGE_TOO_MANY_PIXELS, "The image has too many pixels", { status: 413 });

/** A decoding failure as the client's fault: a pixel cap hit, or a file that does not decode. */
function decodeError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof Error && /pixel limit/i.test(error.message)) return tooManyPixels();
  return unreadable();
}

/**
 * Orients and encodes every width of an image. Metadata is dropped because sharp writes
 * none unless told to keep it. `open` makes a fresh decoder per width, so JPEG and
 * WebP sources shrink while they load instead of being decoded at full size each time.
 */
async function encodeWidths(
  open: () => Sharp,
  id: string,
  role: MediaRole,
  base: { width: number; height: number },
): Promise<ProcessedImage> {
  const variants: EncodedVariant[] = [];
  try {
    for (const width of widthsFor(role, base.width)) {
      const { data, info } = await open()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80, effort: 4, smartSubsample: true })
        .toBuffer({ resolveWithObject: true });
      variants.push({ width: info.width, height: info.height, body: data });
    }
  } catch (error) {
    throw decodeError(error);
  }
  return { id, role, width: base.width, height: base.height, variants };
}

/**
 * Decodes (capped at MEDIA_MAX_PIXELS, first frame only) and encodes an uploaded or
 * given bitmap. The size shown is the header's, turned when EXIF says the picture is
 * rotated a quarter turn.
 */
export async function encodeVariants(source: Uint8Array, role: MediaRole): Promise<ProcessedImage> {
  const open = (): Sharp =>
    sharp(source, { limitInputPixels: MEDIA_MAX_PIXELS, failOn: "error", animated: false }).rotate();
  let meta: Metadata;
  try {
    meta = await sharp(source, { limitInputPixels: MEDIA_MAX_PIXELS, animated: false }).metadata();
  } catch (error) {
    throw decodeError(error);
  }
  if (meta.width === undefined || meta.height === undefined) throw unreadable();
  const turned = (meta.orientation ?? 1) >= 5;
  const base = turned
    ? { width: meta.height, height: meta.width }
    : { width: meta.width, height: meta.height };
  return encodeWidths(open, assetIdOf(source, role), role, base);
}

/** Upload path: type and size checks, then the variants. */
export async function processUpload(bytes: Uint8Array, role: MediaRole): Promise<ProcessedImage> {
  await inspectUpload(bytes);
  return encodeVariants(bytes, role);
}

/**
 * Generated artwork (our own SVG, never an upload) through the same encoder: rasterised
 * once at the density that makes it `width` pixels wide, then each width encoded from
 * those pixels.
 */
export async function renderSvg(svg: string, role: MediaRole, width: number): Promise<ProcessedImage> {
  const source = Buffer.from(svg, "utf8");
  const nominal = Number(/<svg[^>]*\bwidth="(\d+)"/.exec(svg)?.[1] ?? width);
  const density = Math.max(72, Math.min(72 * 8, Math.ceil((72 * width) / nominal)));
  const { data, info } = await sharp(source, { density, limitInputPixels: MEDIA_MAX_PIXELS })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const raw = { width: info.width, height: info.height, channels: info.channels };
  return encodeWidths(() => sharp(data, { raw }), assetIdOf(source, role), role, {
    width: info.width,
    height: info.height,
  });
}

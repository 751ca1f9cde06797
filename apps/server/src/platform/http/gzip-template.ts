import { constants, crc32, deflateRawSync } from "node:zlib";

/**
 * Gzip for a page that is the same every time except for a few short holes (the CSP
 * nonce): the fixed parts are deflated once, each answer only splices its hole values in
 * as stored (uncompressed) deflate blocks and adds the CRC. Valid because every part ends
 * with a sync flush (byte-aligned, no final block), and separately deflated parts never
 * refer back into each other. Costs microseconds per answer instead of a compression of
 * the whole page.
 */
export interface GzipTemplate {
  /** Deflated fixed parts, one more than holes. */
  parts: Buffer[];
  /** The fixed parts as UTF-8, for the CRC and length of each answer. */
  raw: Buffer[];
}

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** An empty stored block with BFINAL set: ends the deflate stream. */
const FINAL_BLOCK = Buffer.from([1, 0, 0, 0xff, 0xff]);

/** Deflates the parts of `text` between occurrences of `hole`. */
export function gzipTemplate(text: string, hole: string, level = 6): GzipTemplate {
  const raw = text.split(hole).map((part) => Buffer.from(part, "utf8"));
  const parts = raw.map((part) => deflateRawSync(part, { level, finishFlush: constants.Z_SYNC_FLUSH }));
  return { parts, raw };
}

function storedBlock(data: Buffer): Buffer {
  const len = data.length;
  const head = Buffer.from([0, len & 0xff, len >> 8, ~len & 0xff, (~len >> 8) & 0xff]);
  return Buffer.concat([head, data]);
}

/** The gzip stream of the template with every hole filled by `value` (under 64 KB). */
export function fillGzipTemplate(template: GzipTemplate, value: string): Buffer {
  const fill = Buffer.from(value, "utf8");
  const block = storedBlock(fill);
  const out: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  template.parts.forEach((part, i) => {
    const raw = template.raw[i] ?? Buffer.alloc(0);
    if (i > 0) {
      out.push(block);
      crc = crc32(fill, crc);
      size += fill.length;
    }
    out.push(part);
    crc = crc32(raw, crc);
    size += raw.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  out.push(FINAL_BLOCK, trailer);
  return Buffer.concat(out);
}

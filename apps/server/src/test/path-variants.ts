import fc from "fast-check";

/**
 * Encodings of one logical path, for the canonical-path property tests: every variant
 * names the same path under the canonical path policy (platform/http/canonical-path.ts)
 * unless it holds an encoded slash, which the policy refuses.
 */
export interface PathVariant {
  /** The request target as sent on the wire. */
  raw: string;
  /** A `/` of the path was sent as `%2F` / `%2f`: the server must refuse it (400). */
  encodedSlash: boolean;
}

/** A canonical logical path: 1-4 segments of URL-safe characters, no dot segments. */
export function logicalPath(): fc.Arbitrary<string> {
  const segment = fc
    .string({ unit: fc.constantFrom(..."abcXYZ019-_~!$&'()*+,;=:@é ".split("")), minLength: 1, maxLength: 6 })
    .filter((s) => s !== "." && s !== "..");
  return fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => {
    const encoded = segments.map((s) =>
      [...s].map((ch) => (/^[A-Za-z0-9\-._~!$&'()*+,;=:@]$/.test(ch) ? ch : encodeURIComponent(ch))).join(""),
    );
    return `/${encoded.join("/")}`;
  });
}

function hex(byte: number, upper: boolean): string {
  const h = byte.toString(16).padStart(2, "0");
  return `%${upper ? h.toUpperCase() : h.toLowerCase()}`;
}

/** Reads choices from a fast-check stream of naturals. */
class Choices {
  readonly #it: Iterator<number>;
  constructor(stream: Iterable<number>) {
    this.#it = stream[Symbol.iterator]();
  }
  pick(n: number): number {
    const v = this.#it.next().value;
    return typeof v === "number" ? v % n : 0;
  }
  chance(outOf: number): boolean {
    return this.pick(outOf) === 0;
  }
}

/** Re-encodes one already-encoded segment: each character kept, or percent-encoded in upper or lower hex. */
function reencode(segment: string, c: Choices): string {
  let out = "";
  for (let i = 0; i < segment.length; i++) {
    const ch = segment[i] ?? "";
    if (ch === "%") {
      // An existing escape: keep it, with its hex case possibly flipped.
      const code = Number.parseInt(segment.slice(i + 1, i + 3), 16);
      out += hex(code, !c.chance(2));
      i += 2;
    } else if (c.chance(3)) {
      out += hex(ch.charCodeAt(0), c.chance(2));
    } else {
      out += ch;
    }
  }
  return out;
}

const DOT = [".", "%2e", "%2E"];
const DOTDOT = ["..", "%2e%2e", "%2E%2E", ".%2e", "%2E."];

/**
 * One encoding of `path` (canonical, encoded): characters percent-encoded in upper or
 * lower hex, doubled slashes, `./` and `name/../` segments, a trailing slash, and (when
 * allowed) one slash sent encoded.
 */
export function encodingVariant(
  path: string,
  stream: Iterable<number>,
  options: { encodedSlash?: boolean } = {},
): PathVariant {
  const c = new Choices(stream);
  const segments = path === "/" ? [] : path.slice(1).split("/");
  const parts: string[] = [];
  for (const segment of segments) {
    if (c.chance(4)) parts.push(DOT[c.pick(DOT.length)] ?? ".");
    if (c.chance(5)) parts.push(`zz${c.pick(10)}`, DOTDOT[c.pick(DOTDOT.length)] ?? "..");
    parts.push(reencode(segment, c));
  }
  let encodedSlash = false;
  let raw = "";
  parts.forEach((part, i) => {
    let sep = "/".repeat(1 + (c.chance(4) ? 1 + c.pick(2) : 0));
    if (i > 0 && options.encodedSlash === true && !encodedSlash && c.chance(3)) {
      sep = c.chance(2) ? "/%2F" : "%2f";
      encodedSlash = true;
    }
    raw += sep + part;
  });
  if (raw === "") raw = "/";
  if (c.chance(3)) raw += "/";
  return { raw, encodedSlash };
}

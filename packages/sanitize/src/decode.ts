/**
 * Decoding used only to *detect* hidden schemes: a URL is judged by every form a
 * browser might end up reading (raw, entity-decoded, percent-decoded).
 */

// Named references attackers use to hide a scheme or path separators; numeric ones are handled generically.
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  colon: ":",
  tab: "\t",
  newline: "\n",
  sol: "/",
  bsol: "\\",
  lpar: "(",
  rpar: ")",
  period: ".",
  excl: "!",
  num: "#",
  quest: "?",
  equals: "=",
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
};

/** Decodes `&#106;`, `&#x6A`, `&colon;` and friends (with or without the `;`, any case). */
export function decodeEntities(input: string): string {
  return input.replace(/&(?:#(\d+)|#x([0-9a-f]+)|([a-z]+));?/gi, (match, dec, hex, name) => {
    if (dec !== undefined || hex !== undefined) {
      const cp = dec !== undefined ? Number.parseInt(dec, 10) : Number.parseInt(hex, 16);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : "\ufffd";
    }
    const replacement = NAMED_ENTITIES[String(name).toLowerCase()];
    return replacement ?? match;
  });
}

/** Decodes `%XX` runs; invalid UTF-8 falls back to one character per byte. */
export function decodePercent(input: string): string {
  return input.replace(/(?:%[0-9a-f]{2})+/gi, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run.replace(/%([0-9a-f]{2})/gi, (_m, h: string) => String.fromCharCode(Number.parseInt(h, 16)));
    }
  });
}

/** Entity and percent decoding repeated until stable (double encoding), bounded. */
export function deepDecode(input: string): string {
  let current = input;
  for (let i = 0; i < 8; i++) {
    const next = decodePercent(decodeEntities(current));
    if (next === current) return current;
    current = next;
  }
  return current;
}

/** C0 and C1 controls, DEL, every Unicode space and the zero-width characters. */
const INVISIBLE =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0020\u007f-\u00a0\u1680\u180e\u2000-\u200f\u2028\u2029\u202f\u205f\u2060\u3000\ufeff]/g;

// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f]/g;

/** What is left of a string once everything invisible is gone, lower-cased: the form scheme checks read. */
export function compact(input: string): string {
  return input.replace(INVISIBLE, "").toLowerCase();
}

/**
 * Drops C0 controls and DEL and trims spaces: what a browser's URL parser ignores
 * (it strips tab and newline anywhere and outer controls; the rest are never meaningful).
 */
export function stripControls(input: string): string {
  return input.replace(CONTROLS, "").trim();
}

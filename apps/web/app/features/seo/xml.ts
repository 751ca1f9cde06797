/** Escapes text for XML element content and attribute values. */
export function xmlEscape(text: string): string {
  return text.replace(/[<>&'"]/g, (c) =>
    c === "<" ? "&lt;" : c === ">" ? "&gt;" : c === "&" ? "&amp;" : c === "'" ? "&apos;" : "&quot;",
  );
}

/** W3C date-time in UTC, as sitemaps and Atom want. */
export function isoDate(ms: number): string {
  return new Date(ms).toISOString();
}

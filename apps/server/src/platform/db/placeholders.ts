const cache = new Map<string, string>();
const CACHE_LIMIT = 1000;

/**
 * Rewrites `?` placeholders to PostgreSQL's `$1..$n`, leaving alone any `?` inside
 * single-quoted strings, double-quoted identifiers, dollar-quoted bodies and comments.
 */
export function toPostgresPlaceholders(sql: string): string {
  const cached = cache.get(sql);
  if (cached !== undefined) return cached;
  let out = "";
  let index = 0;
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    const next = sql[i + 1];
    if (ch === "'" || ch === '"') {
      const end = closingQuote(sql, i, ch);
      out += sql.slice(i, end);
      i = end;
    } else if (ch === "-" && next === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === "/" && next === "*") {
      const end = sql.indexOf("*/", i + 2);
      const stop = end === -1 ? sql.length : end + 2;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === "$" && /[A-Za-z_$]/.test(next ?? "") && isDollarQuoteStart(sql, i)) {
      const tag = sql.slice(i, sql.indexOf("$", i + 1) + 1);
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end === -1 ? sql.length : end + tag.length;
      out += sql.slice(i, stop);
      i = stop;
    } else if (ch === "?") {
      index += 1;
      out += `$${index}`;
      i += 1;
    } else {
      out += ch;
      i += 1;
    }
  }
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(sql, out);
  return out;
}

/** Index just past the quote that closes the one at `start` (a doubled quote is an escape). */
function closingQuote(sql: string, start: number, quote: string): number {
  let i = start + 1;
  while (i < sql.length) {
    if (sql[i] === quote) {
      if (sql[i + 1] === quote) {
        i += 2;
        continue;
      }
      return i + 1;
    }
    i += 1;
  }
  return sql.length;
}

function isDollarQuoteStart(sql: string, start: number): boolean {
  const match = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(sql.slice(start, start + 64));
  return match !== null && !/[A-Za-z0-9_]/.test(sql[start - 1] ?? "");
}

import { type AirdropInput, airdropInputSchema } from "@meridian/contracts";
import type { Db } from "../../platform/db/types.ts";
import type { AirdropTexts } from "./texts.ts";
import { sanitizeAirdropInput, saveAirdrop } from "./writes.ts";

/** One rejected row: its 1-based number in the file (the CSV header is row 0) and what is wrong. */
export interface RowIssue {
  row: number;
  slug: string | undefined;
  problems: string[];
}

export type ParseResult = { ok: true; rows: AirdropInput[] } | { ok: false; issues: RowIssue[] };

const DATE_FIELDS = ["startAt", "endAt", "listingAt", "claimAt"] as const;
const LIST_FIELDS = ["requirements"] as const;
const JSON_FIELDS = ["guide", "faq", "translations"] as const;
const BOOL_FIELDS = ["published"] as const;

/** RFC 4180 CSV: quoted fields, doubled quotes, line breaks inside quotes, CRLF or LF. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"' && field === "") quoted = true;
    else if (c === ",") {
      row.push(field);
      field = "";
    } else if (c === "\n" || c === "\r") {
      if (c === "\r" && text[i + 1] === "\n") i++;
      row.push(field);
      field = "";
      if (row.some((f) => f !== "")) rows.push(row);
      row = [];
    } else field += c;
  }
  row.push(field);
  if (row.some((f) => f !== "")) rows.push(row);
  return rows;
}

/** Dates may be epoch ms or ISO 8601 text (UTC unless an offset is given). */
function toMs(value: unknown): unknown {
  if (value === "" || value === null || value === undefined) return null;
  if (typeof value === "number") return value;
  if (typeof value === "string") {
    if (/^\d+$/.test(value)) return Number(value);
    const iso = /T|Z|[+-]\d\d:?\d\d$/.test(value) ? value : `${value}T00:00:00Z`;
    const ms = Date.parse(iso);
    return Number.isNaN(ms) ? value : ms;
  }
  return value;
}

/** Turns CSV cells (all text) into the shapes the schema expects. */
function fromCsvRecord(record: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (value === "") continue;
    if ((LIST_FIELDS as readonly string[]).includes(key)) out[key] = value.split("|").map((s) => s.trim());
    else if ((JSON_FIELDS as readonly string[]).includes(key)) {
      try {
        out[key] = JSON.parse(value);
      } catch {
        out[key] = value;
      }
    } else if ((BOOL_FIELDS as readonly string[]).includes(key)) out[key] = value === "true" || value === "1";
    else out[key] = value;
  }
  return out;
}

function normalise(raw: Record<string, unknown>): Record<string, unknown> {
  const out = { ...raw };
  for (const f of DATE_FIELDS) if (f in out) out[f] = toMs(out[f]);
  return out;
}

/**
 * Reads a JSON array (or `{airdrops: [...]}`) or a CSV file with a header row of field
 * names (requirements separated by `|`; guide, faq and translations as JSON cells) and
 * validates EVERY row. Any bad row rejects the whole file.
 */
export function parseImport(text: string, format: "json" | "csv"): ParseResult {
  let records: Record<string, unknown>[];
  if (format === "json") {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      return {
        ok: false,
        issues: [{ row: 0, slug: undefined, problems: [`not JSON: ${(error as Error).message}`] }],
      };
    }
    const list = Array.isArray(parsed) ? parsed : (parsed as { airdrops?: unknown })?.airdrops;
    if (!Array.isArray(list)) {
      return {
        ok: false,
        issues: [{ row: 0, slug: undefined, problems: ["expected an array of airdrops"] }],
      };
    }
    records = list.map((r) => (typeof r === "object" && r !== null ? (r as Record<string, unknown>) : {}));
  } else {
    const [header, ...lines] = parseCsv(text);
    if (!header) return { ok: false, issues: [{ row: 0, slug: undefined, problems: ["empty file"] }] };
    records = lines.map((cells) =>
      fromCsvRecord(Object.fromEntries(header.map((name, i) => [name.trim(), cells[i] ?? ""]))),
    );
  }
  const rows: AirdropInput[] = [];
  const issues: RowIssue[] = [];
  const seen = new Set<string>();
  records.forEach((record, i) => {
    const result = airdropInputSchema.safeParse(normalise(record));
    const slug = typeof record.slug === "string" ? record.slug : undefined;
    const problems = result.success
      ? []
      : result.error.issues.map((issue) => `${issue.path.join(".") || "(row)"}: ${issue.message}`);
    if (slug !== undefined && seen.has(slug)) problems.push(`slug: ${slug} appears twice in the file`);
    if (slug !== undefined) seen.add(slug);
    if (problems.length > 0) issues.push({ row: i + 1, slug, problems });
    else if (result.success) rows.push(result.data);
  });
  if (records.length === 0) issues.push({ row: 0, slug: undefined, problems: ["no rows"] });
  return issues.length > 0 ? { ok: false, issues } : { ok: true, rows };
}

/** Writes validated rows in one transaction (insert or update by slug); all or nothing. */
export async function importAirdrops(
  db: Db,
  texts: AirdropTexts,
  rows: readonly AirdropInput[],
  now = Date.now(),
): Promise<number> {
  return db.transaction(async (tx) => {
    for (const row of rows) await saveAirdrop(tx, texts, sanitizeAirdropInput(row), now, "upsert");
    return rows.length;
  });
}

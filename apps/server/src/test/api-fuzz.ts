/**
 * Request generators for the API fuzz test (`api-fuzz.test.ts`, `npm run fuzz:api`):
 * every route of the table with hostile methods, headers, encodings, bodies, sizes,
 * nesting, unicode and numbers out of range.
 */
import { createHash } from "node:crypto";
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import fc from "fast-check";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import type { Queryable } from "../platform/db/types.ts";
import { MAX_ERROR_DATA_BYTES, MAX_ERROR_MSG } from "../platform/http/api-edge.ts";
import { encodingVariant } from "./path-variants.ts";

export interface TableRoute {
  method: string;
  url: string;
}

export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload: Buffer | undefined;
  /** What the case is, for a failure message (bodies are summarised, never printed whole). */
  label: string;
}

export interface FuzzSessions {
  user: string;
  admin: string;
}

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD"];

/** Field names the routes read, so bodies reach past the first schema check. */
const KEYS = [
  "symbol",
  "side",
  "type",
  "orderType",
  "price",
  "quantity",
  "qty",
  "amount",
  "size",
  "orderId",
  "clientOid",
  "coin",
  "asset",
  "from",
  "to",
  "leverage",
  "marginMode",
  "triggerPrice",
  "locale",
  "slug",
  "page",
  "pageSize",
  "email",
  "loginName",
  "pwd",
  "code",
  "verifyCode",
  "googleCode",
  "name",
  "title",
  "body",
  "about",
  "longDescription",
  "stars",
  "rating",
  "appId",
  "id",
  "ids",
  "published",
  "translations",
  "__proto__",
  "constructor",
];

/** Numbers no schema should take: beyond double range, beyond 2^53, NaN spelt out, tiny. */
const OUT_OF_RANGE = [
  "1e309",
  "-1e309",
  "1e-400",
  "-0",
  "9007199254740993",
  "123456789012345678901234567890",
  "-99999999999999999999999",
  "0.000000000000000000000000001",
  "NaN",
  "Infinity",
  "0x10",
  "1_000",
  "00012",
];

const oddText = fc.constantFrom(
  "",
  " ",
  "\u0000",
  "\ud800",
  "\u202e\u0644\u0627",
  "%",
  "%zz",
  "%00",
  "../..",
  "<img src=x onerror=alert(1)>",
  "'; DROP TABLE users; --",
  "\u{1f642}".repeat(64),
  "a".repeat(5000),
);

const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  oddText,
);

/** Printable ASCII: what a header value may hold without the client library refusing it. */
const headerText = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 60,
});

const scalarJson: fc.Arbitrary<string> = fc.oneof(
  fc.jsonValue({ maxDepth: 0 }).map((v) => JSON.stringify(v) ?? "null"),
  text.map((s) => JSON.stringify(s)),
  fc.constantFrom(...OUT_OF_RANGE),
  fc.constantFrom(...OUT_OF_RANGE).map((s) => JSON.stringify(s)),
  fc.double().map((d) => (Number.isFinite(d) ? String(d) : "1e999")),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
);

/** JSON text, possibly invalid (NaN, 0x10), with known keys and odd values. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string; array: string; object: string }>((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, scalarJson, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 5 }).map((items) => `[${items.join(",")}]`),
  object: fc
    .array(fc.tuple(fc.oneof(fc.constantFrom(...KEYS), text), tie("value")), { maxLength: 8 })
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(",")}}`),
})).value;

const nested = fc
  .tuple(fc.integer({ min: 50, max: 60_000 }), fc.constantFrom("[", '{"a":', '{"body":"'))
  .map(([depth, open]) => {
    if (open === "[") return `${"[".repeat(depth)}${"]".repeat(depth)}`;
    if (open === '{"a":') return `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`;
    // Nested HTML inside a JSON string: what the sanitiser bounds refuse.
    return `{"body":"${"<div>".repeat(depth)}x${"</div>".repeat(depth)}","about":"${"<b>".repeat(depth)}"}`;
  });

const huge = fc
  .tuple(fc.integer({ min: 900_000, max: 11_000_000 }), fc.boolean())
  .map(([n, asJson]) => (asJson ? `{"body":"${"x".repeat(n)}"}` : "x".repeat(n)));

const bodyText = fc.oneof(
  { weight: 8, arbitrary: jsonText },
  { weight: 2, arbitrary: nested },
  { weight: 1, arbitrary: huge },
  { weight: 2, arbitrary: text },
);

const body = fc.oneof(
  { weight: 1, arbitrary: fc.constant<Buffer | undefined>(undefined) },
  { weight: 8, arbitrary: bodyText.map((t) => Buffer.from(t)) },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)) },
);

type Encoding = "none" | "gzip" | "deflate" | "br" | "gzip-label-only" | "odd";
const encoding = fc.oneof(
  { weight: 6, arbitrary: fc.constant<Encoding>("none") },
  { weight: 4, arbitrary: fc.constantFrom<Encoding>("gzip", "deflate", "br", "gzip-label-only", "odd") },
);

const contentType = fc.oneof(
  fc.constantFrom(
    "application/json",
    "application/json; charset=utf-8",
    "application/json; charset=utf-16",
    "text/plain",
    "application/x-www-form-urlencoded",
    "multipart/form-data; boundary=x",
    "application/octet-stream",
    "",
  ),
  headerText,
);

/** Percent-encoded; a lone surrogate (which encodeURIComponent refuses) goes raw as %ED%A0%80. */
function enc(value: string): string {
  return value
    .split(/([\ud800-\udfff])/)
    .map((part) => (/^[\ud800-\udfff]$/.test(part) ? "%ED%A0%80" : encodeURIComponent(part)))
    .join("");
}

const pathValue = fc.oneof(
  fc.constantFrom("BTCUSDT", "ETHUSDT", "1", "0", "-1", "99999999999999999999", "x".repeat(200)),
  text.map(enc),
  fc.constantFrom("%", "%zz", "%2e%2e", "..", "%00", "%c0%af", "a%2Fb"),
);

const query = fc.oneof(
  fc.constant(""),
  fc
    .array(
      fc.tuple(
        fc.oneof(
          fc.constantFrom("page", "pageSize", "locale", "symbol", "from", "to", "limit", "q", "lang"),
          text,
        ),
        fc.oneof(fc.constantFrom(...OUT_OF_RANGE), text, fc.constantFrom("%zz", "%", "[]", "a[b]=c")),
      ),
      { maxLength: 6 },
    )
    .map((pairs) => `?${pairs.map(([k, v]) => `${enc(k)}=${v.startsWith("%") ? v : enc(v)}`).join("&")}`),
);

function fillPath(template: string, values: string[]): string {
  let i = 0;
  return template
    .split("/")
    .map((segment) => {
      if (segment.startsWith(":") || segment === "*") return values[i++ % values.length] ?? "x";
      return segment;
    })
    .join("/");
}

function encode(
  payload: Buffer | undefined,
  how: Encoding,
): { payload: Buffer | undefined; header?: string } {
  if (payload === undefined) return { payload };
  switch (how) {
    case "none":
      return { payload };
    case "gzip":
      return { payload: gzipSync(payload), header: "gzip" };
    case "deflate":
      return { payload: deflateSync(payload), header: "deflate" };
    case "br":
      return { payload: brotliCompressSync(payload), header: "br" };
    case "gzip-label-only":
      return { payload, header: "gzip" };
    case "odd":
      return { payload, header: "compress, x-unknown" };
  }
}

/** One hostile request for a route of `routes`; `sessions` are real session cookies. */
export function fuzzRequest(
  routes: readonly TableRoute[],
  sessions: FuzzSessions,
  host: string,
): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      route: fc.constantFrom(...routes),
      method: fc.oneof(
        { weight: 4, arbitrary: fc.constant("") },
        { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
      ),
      values: fc.array(pathValue, { minLength: 1, maxLength: 3 }),
      query,
      body,
      encoding,
      contentType,
      cookie: fc.constantFrom("user", "admin", "none", "garbage"),
      origin: fc.constantFrom("same", "evil", "null", "none"),
      extra: fc.dictionary(
        fc.constantFrom(
          "paptrading",
          "device-sign",
          "device-sign-mode",
          "device-sign-data-md5",
          "device-sign-key",
          "tm",
          "uhti",
          "locale",
          "language",
          "x-forwarded-for",
          "accept-encoding",
          "pfb",
          "if-none-match",
          "range",
        ),
        fc.oneof(headerText, fc.constantFrom(...OUT_OF_RANGE)),
        { maxKeys: 4 },
      ),
    })
    .map((r) => {
      const method = r.method === "" ? r.route.method : r.method;
      const url = `${fillPath(r.route.url, r.values)}${r.query}`;
      const sendsBody = method !== "GET" && method !== "HEAD";
      const encoded = encode(sendsBody ? r.body : undefined, r.encoding);
      const headers: Record<string, string> = { host, ...r.extra };
      if (encoded.payload !== undefined) headers["content-type"] = r.contentType;
      if (encoded.header !== undefined) headers["content-encoding"] = encoded.header;
      if (r.cookie === "user") headers.cookie = sessions.user;
      if (r.cookie === "admin") headers.cookie = sessions.admin;
      if (r.cookie === "garbage") headers.cookie = "mer_token=%zz; mer_token=\u00e9";
      if (r.origin === "same") headers.origin = `http://${host}`;
      if (r.origin === "evil") headers.origin = "https://evil.example";
      if (r.origin === "null") headers.origin = "null";
      const size = encoded.payload?.length ?? 0;
      const head = encoded.payload?.subarray(0, 80).toString("latin1") ?? "";
      return {
        method,
        url,
        headers,
        payload: encoded.payload,
        label: `${method} ${url.slice(0, 200)} [${r.encoding}, ${r.contentType.slice(0, 40)}, cookie ${r.cookie}, origin ${r.origin}, ${size} bytes: ${JSON.stringify(head)}]`,
      };
    });
}

/**
 * A digest of every stored row of every table except `skip`, to tell whether a request
 * changed anything. The database's own catalogue lists the tables (SQLite's, or the
 * current schema's on PostgreSQL).
 */
/** `skip` names whole tables (`name`) or single columns (`name.column`). */
export async function digestRows(db: Queryable, skip: ReadonlySet<string>): Promise<Map<string, string>> {
  const tables = await db.all<{ name: string }>(
    db.dialect === "sqlite"
      ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
      : "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
  );
  const out = new Map<string, string>();
  for (const { name } of tables) {
    if (skip.has(name)) continue;
    const skippedColumns = [...skip]
      .filter((s) => s.startsWith(`${name}.`))
      .map((s) => s.slice(name.length + 1));
    const rows = await db.all<Record<string, unknown>>(`SELECT * FROM "${name}"`);
    for (const row of rows) for (const column of skippedColumns) delete row[column];
    // PostgreSQL returns rows in no stated order: digest them sorted.
    const lines = rows
      .map((row) => JSON.stringify(row, (_k, v) => (typeof v === "bigint" ? `${v}n` : v)))
      .sort();
    const hash = createHash("sha256");
    for (const line of lines) hash.update(line);
    out.set(name, `${rows.length}:${hash.digest("hex").slice(0, 16)}`);
  }
  return out;
}

/** Tables whose digest differs between `before` and `after`. */
export function changedTables(before: Map<string, string>, after: Map<string, string>): string[] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names].filter((n) => before.get(n) !== after.get(n));
}

/** A page route of the web app's route table: its full path pattern (`/:lang?/airdrops/:slug`). */
export interface PageRoute {
  path: string;
}

interface BuiltRoute {
  id: string;
  parentId?: string;
  path?: string;
  index?: boolean;
}

/**
 * Every page path of the web app's route table, read from its server build (`routes`),
 * parents' paths joined in: what the SSR handler answers.
 */
export async function pageRoutes(serverBuild: string): Promise<PageRoute[]> {
  const build = (await import(serverBuild)) as { routes: Record<string, BuiltRoute> };
  const byId = build.routes;
  const full = (route: BuiltRoute): string => {
    const own = route.path ?? "";
    const parent = route.parentId === undefined ? undefined : byId[route.parentId];
    const base = parent === undefined ? "" : full(parent);
    return own === "" ? base : `${base}/${own}`;
  };
  const paths = new Set<string>();
  for (const route of Object.values(byId)) {
    if (route.id === "root") continue;
    paths.add(full(route).replace(/\/+/g, "/") || "/");
  }
  return [...paths].sort().map((path) => ({ path }));
}

const LOCALE_PREFIXES = [
  "",
  "en",
  "ar",
  "ja",
  "zh-CN",
  "EN",
  "Ar",
  "zh-cn",
  "en-US",
  "pt-br",
  "xx",
  "%2e%2e",
  "ar%2F",
];

/** A path segment for a `:param` of a page: plausible, hostile or odd-encoded. */
const pageValue = fc.oneof(
  fc.constantFrom("BTCUSDT", "btc_usdt", "ETHUSDT", "unknown-slug", "1", "x".repeat(300)),
  text.map(enc),
  fc.constantFrom("%", "%zz", "%00", "%c0%af", "%2e%2e", "..", ".", "a%2Fb", "%5c", "\\", "@evil.example"),
);

/** A hostile start for a path: doubled slashes, backslashes, encoded slashes, a scheme. */
const pathPrefix = fc.oneof(
  { weight: 3, arbitrary: fc.constant("") },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      "/",
      "//evil.example",
      "/\\evil.example",
      "/%2F",
      "/%5C",
      "/%2f%2f",
      "/http:",
      "/https://evil.example",
      "/./",
      "/../",
    ),
  },
);

/** One hostile GET or HEAD for a page route: the path mangled, odd query strings and headers. */
export function fuzzPageRequest(routes: readonly PageRoute[], sessions: FuzzSessions, host: string) {
  return fc
    .record({
      route: fc.constantFrom(...routes),
      method: fc.constantFrom("GET", "GET", "GET", "HEAD"),
      lang: fc.constantFrom(...LOCALE_PREFIXES),
      values: fc.array(pageValue, { minLength: 1, maxLength: 3 }),
      prefix: pathPrefix,
      mangle: fc.infiniteStream(fc.nat()),
      // One in three paths mangled, so most cases reach a page render, not only the edge.
      mangled: fc.constantFrom(false, false, true),
      query: fc.oneof(
        query,
        fc.constantFrom(
          "?redirect=//evil.example",
          "?redirect=/\\evil.example",
          "?redirect=https://evil.example",
          "?redirect=%2F%2Fevil.example",
          "?redirect=/ar//evil.example",
          "?lang=zz&lang=ar&locale=%00",
          `?q=${"%41".repeat(3000)}`,
        ),
      ),
      cookie: fc.constantFrom("user", "admin", "none", "garbage", "locale"),
      extra: fc.dictionary(
        fc.constantFrom(
          "accept-language",
          "accept",
          "accept-encoding",
          "user-agent",
          "x-forwarded-for",
          "x-forwarded-proto",
          "x-forwarded-host",
          "if-none-match",
          "if-modified-since",
          "range",
          "sec-fetch-site",
          "referer",
          "cache-control",
        ),
        fc.oneof(
          headerText,
          fc.constantFrom(
            "*",
            "ar;q=2, ja;q=NaN",
            "text/html",
            "bytes=0-0,-1",
            "gzip, br;q=0",
            "evil.example",
          ),
        ),
        { maxKeys: 4 },
      ),
    })
    .map((r) => {
      const filled = fillPath(
        r.route.path.replace(/^\/:lang\?/, r.lang === "" ? "" : `/${r.lang}`),
        r.values,
      );
      const logical = filled === "" ? "/" : filled;
      const path = r.mangled
        ? encodingVariant(logical.replace(/\/+/g, "/"), r.mangle, { encodedSlash: true }).raw
        : logical;
      const url = `${r.prefix === "" ? "" : r.prefix.replace(/\/$/, "")}${path}${r.query}`;
      const headers: Record<string, string> = { host, ...r.extra };
      if (r.cookie === "user") headers.cookie = sessions.user;
      if (r.cookie === "admin") headers.cookie = sessions.admin;
      if (r.cookie === "garbage") headers.cookie = "mer_token=%zz; locale=%00; theme=\u00e9";
      if (r.cookie === "locale") headers.cookie = "locale=ar; theme=dark";
      return {
        method: r.method,
        url,
        headers,
        label: `${r.method} ${url.slice(0, 200)} [cookie ${r.cookie}, headers ${JSON.stringify(r.extra).slice(0, 200)}]`,
      };
    });
}

/** An error answer is at most this long: msg and data are bounded at the edge, plus the envelope. */
export const MAX_ERROR_ANSWER = MAX_ERROR_MSG * 6 + MAX_ERROR_DATA_BYTES + 200;

/**
 * Tables or columns that change by design while a refused request runs: a session records
 * its last use when its cookie is read, even if the request is then refused; the writer
 * lease's expiry is renewed on a timer (several instances on PostgreSQL).
 */
export const MAY_CHANGE_WHEN_REFUSED: ReadonlySet<string> = new Set<string>([
  "sessions.last_seen_at",
  "writer_lease.expires_at",
]);

/**
 * The API fuzz property: `runs` hostile requests from `seed` over `routes`; each answer
 * is below 500, an error is a bounded `{code, msg, data}`, and a refused request changes
 * no stored row. Returns how many answers had each status.
 */
export async function runApiFuzz(options: {
  app: FastifyInstance;
  db: Queryable;
  routes: readonly TableRoute[];
  sessions: FuzzSessions;
  host: string;
  runs: number;
  seed: number;
}): Promise<Map<number, number>> {
  const { app, db } = options;
  let baseline = await digestRows(db, MAY_CHANGE_WHEN_REFUSED);
  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(fuzzRequest(options.routes, options.sessions, options.host), async (req) => {
      const res = await app.inject({
        method: req.method as "GET",
        url: req.url,
        headers: req.headers,
        ...(req.payload === undefined ? {} : { payload: req.payload }),
      });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      expect(res.statusCode, req.label).toBeLessThan(500);
      if (res.statusCode >= 400 && req.method !== "HEAD") {
        expect(res.headers["content-type"], req.label).toMatch(/^application\/json/);
        expect(res.rawPayload.length, req.label).toBeLessThanOrEqual(MAX_ERROR_ANSWER);
        const body = res.json() as Record<string, unknown>;
        expect(Object.keys(body).sort(), req.label).toEqual(["code", "data", "msg"]);
        expect(body.code, req.label).toMatch(/^\d{5}$/);
        expect(typeof body.msg, req.label).toBe("string");
      }
      const after = await digestRows(db, MAY_CHANGE_WHEN_REFUSED);
      if (res.statusCode >= 400) expect(changedTables(baseline, after), req.label).toEqual([]);
      baseline = after;
    }),
    { numRuns: options.runs, seed: options.seed, endOnFailure: true },
  );
  return statuses;
}

/**
 * The attacks of the gateway-hardening issue, tried by hand against a running production
 * server (`npm start`), each printed as one line: what was sent and what came back. The
 * answers are recorded in docs/security.md ("Verified by hand"); nothing here asserts.
 *
 *   ATTACK_URL=http://127.0.0.1:4810 ATTACK_LOG=/path/to/server.log \
 *     ATTACK_ADMIN=admin@meridian.example:password ATTACK_USER=demo@meridian.example:password \
 *     npx node scripts/security-attacks.ts [names...]
 *
 * ATTACK_LOG is the server's log (codes are written there without SMTP). The server is
 * expected to run with TRUST_PROXY=127.0.0.1 (the script plays the proxy).
 */
import { readFileSync } from "node:fs";
import http from "node:http";
import { encryptLoginBody, generateDeviceKey, signWith, verifyServerKey } from "@meridian/client";
import { gatewaySignConfigSchema } from "@meridian/contracts";

const base = process.env.ATTACK_URL ?? "http://127.0.0.1:4810";
const { hostname, port } = new URL(base);
const logFile = process.env.ATTACK_LOG;
const [adminName = "", adminPwd = ""] = (process.env.ATTACK_ADMIN ?? "").split(":");
const [userName = "", userPwd = ""] = (process.env.ATTACK_USER ?? "").split(":");

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  bytes: number;
  ms: number;
}

function send(
  method: string,
  target: string,
  options: { body?: string | Buffer; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: hostname, port, method, path: target, headers: options.headers ?? {}, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const all = Buffer.concat(chunks);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: all.toString("utf8"),
            bytes: all.length,
            ms: Math.round(performance.now() - started),
          });
        });
      },
    );
    // A server may answer (413) and close before a large body is written: keep the answer.
    req.on("error", (err) => setTimeout(() => reject(err), 2_000));
    req.end(options.body);
  });
}

const json = (body: unknown, extra: Record<string, string> = {}) => ({
  body: JSON.stringify(body),
  headers: { "content-type": "application/json", origin: base, ...extra },
});
const code = (a: Answer) => {
  try {
    return (JSON.parse(a.body) as { code?: string }).code ?? "-";
  } catch {
    return "-";
  }
};
const short = (a: Answer) => `${a.status} ${code(a)} ${a.body.slice(0, 120).replace(/\s+/g, " ")}`;
const line = (name: string, sent: string, answer: string) => console.log(`${name}\t${sent}\t${answer}`);

type ServerKey = Awaited<ReturnType<typeof verifyServerKey>>;
let serverKey: ServerKey | undefined;
async function key(): Promise<ServerKey> {
  if (serverKey) return serverKey;
  const res = JSON.parse((await send("GET", "/v1/mix/config/gatewaySignConfig")).body) as {
    data: { gatewaySignConfig: unknown };
  };
  serverKey = await verifyServerKey(gatewaySignConfigSchema.parse(res.data.gatewaySignConfig));
  return serverKey;
}

async function encrypted(
  path: string,
  body: Record<string, unknown>,
  extra: Record<string, string> = {},
  bindKey = false,
) {
  const pair = bindKey ? await generateDeviceKey("ECDSA_P256") : undefined;
  const device =
    pair === undefined
      ? undefined
      : { publicKey: pair.publicKey, algorithm: pair.algorithm, sign: (t: string) => signWith(pair, t) };
  const sealed = await encryptLoginBody(path, body, await key(), Date.now(), device);
  return send("POST", path, json(sealed, extra));
}

/**
 * A session as a browser opens it: the login binds a device key, so signed paths need its
 * signature. The attacker holds the cookie only (the key never leaves the browser).
 */
async function login(name: string, pwd: string): Promise<string> {
  const res = await encrypted("/v1/user/login", { loginName: name, pwd }, {}, true);
  const cookies = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
  const cookie = cookies.map((c) => c.split(";")[0]).join("; ");
  if (!cookie.includes("mer_token=")) throw new Error(`login of ${name} failed: ${short(res)}`);
  return cookie;
}

/** The newest 6-digit code the server logged for `recipient` (no SMTP: codes go to the log). */
function loggedCode(recipient: string): string | undefined {
  if (logFile === undefined) return undefined;
  const lines = readFileSync(logFile, "utf8")
    .split("\n")
    .filter((l) => l.includes(recipient));
  for (const l of lines.reverse()) {
    const m = /verification code is (\d{6})/.exec(l);
    if (m) return m[1];
  }
  return undefined;
}

const attacks: Record<string, () => Promise<void>> = {
  async "plaintext-login"() {
    for (const path of ["/v1/user/login", "/v1/user/%6Cogin", "/v1/user/l%6fgin", "/v1//user/./login"]) {
      const a = await send("POST", path, json({ loginName: userName, pwd: userPwd }));
      line("plaintext-login", `POST ${path} {loginName, pwd} in plaintext`, short(a));
    }
  },
  async "unsigned-2fa"() {
    const cookie = await login(userName, userPwd);
    for (const path of ["/v1/user/google/setup", "/v1/user/google/%73etup", "/v1/user/%67oogle/bind"]) {
      const a = await send("POST", path, json({}, { cookie }));
      line("unsigned-2fa", `POST ${path} with a session cookie, no device-sign`, short(a));
    }
  },
  async "unsigned-order"() {
    const cookie = await login(userName, userPwd);
    const order = { symbol: "BTCUSDT", side: "BUY", orderType: "limit", price: "1000", size: "0.001" };
    for (const path of ["/v1/paper/orders", "/v1/%70aper/orders", "/v1/paper//orders/"]) {
      const a = await send("POST", path, json(order, { cookie, paptrading: "1" }));
      line("unsigned-order", `POST ${path} with a session cookie, no device-sign`, short(a));
    }
  },
  async redirects() {
    for (const path of [
      "//evil.example/EN",
      "/EN//evil.example",
      "/zh-cn//evil.example/x",
      "/en-US//evil.example",
      "/%2F%2Fevil.example",
      "/EN/%2F%2Fevil.example",
      "/\\evil.example",
      "/login?redirect=//evil.example",
      "/login?redirect=/EN//evil.example",
      "/login?redirect=https://evil.example",
    ]) {
      const a = await send("GET", path, { headers: { accept: "text/html" } });
      line("redirects", `GET ${path}`, `${a.status} Location: ${a.headers.location ?? "(none)"}`);
    }
  },
  async "parallel-passwords"() {
    const tries = Array.from({ length: 24 }, (_, i) => ({ pwd: `wrong-password-${i}` }));
    tries.splice(12, 0, { pwd: adminPwd });
    const answers = await Promise.all(
      tries.map((t) => encrypted("/v1/user/login", { loginName: adminName, pwd: t.pwd })),
    );
    const counts = new Map<string, number>();
    for (const a of answers) counts.set(code(a), (counts.get(code(a)) ?? 0) + 1);
    const right = answers[12];
    line(
      "parallel-passwords",
      "24 wrong passwords + the right one (13th) at once, one account",
      `codes ${JSON.stringify(Object.fromEntries(counts))}; the right one: ${right ? short(right) : "-"}`,
    );
  },
  async "parallel-email-codes"() {
    const email = `attack-${Date.now()}@example.com`;
    const sent = await send("POST", "/v1/user/public/sendCode", json({ bizType: "register", email }));
    const answers = await Promise.all(
      Array.from({ length: 29 }, (_, i) =>
        encrypted("/v1/user/register/email", {
          email,
          emailCode: String(100000 + i * 7),
          pwd: "attack-password-1",
        }),
      ),
    );
    const counts = new Map<string, number>();
    for (const a of answers) counts.set(code(a), (counts.get(code(a)) ?? 0) + 1);
    const right = loggedCode(email);
    const last =
      right === undefined
        ? undefined
        : await encrypted("/v1/user/register/email", { email, emailCode: right, pwd: "attack-password-1" });
    line(
      "parallel-email-codes",
      `send a register code, 29 wrong codes at once, then the right one (${right ?? "not found"})`,
      `send ${code(sent)}; wrong: ${JSON.stringify(Object.fromEntries(counts))}; right code: ${last ? short(last) : "-"}`,
    );
  },
  async "send-40"() {
    const stamp = Date.now();
    const answers: Answer[] = [];
    for (let i = 0; i < 40; i++)
      answers.push(
        await send(
          "POST",
          "/v1/user/public/sendCode",
          json({ bizType: "register", email: `spray-${stamp}-${i}@example.com` }),
        ),
      );
    const ok = answers.filter((a) => code(a) === "00000").length;
    const refused = answers.find((a) => code(a) !== "00000");
    line(
      "send-40",
      "40 register-code sends to 40 addresses, one client",
      `${ok} sent; then ${refused ? short(refused) : "-"}`,
    );
  },
  async "xff-rotation"() {
    // The script is the trusted proxy (127.0.0.1): it appends the real client's address.
    const stamp = Date.now();
    const answers: Answer[] = [];
    for (let i = 0; i < 15; i++)
      answers.push(
        await send(
          "POST",
          "/v1/user/public/sendCode",
          json(
            { bizType: "register", email: `xff-${stamp}-${i}@example.com` },
            { "x-forwarded-for": `10.${i}.${i}.${i}, 198.51.100.${stamp % 200}` },
          ),
        ),
      );
    const ok = answers.filter((a) => code(a) === "00000").length;
    line(
      "xff-rotation",
      "TRUST_PROXY=127.0.0.1; 15 sends, X-Forwarded-For `10.i.i.i, <one client>` (first hop rotating)",
      `${ok} sent, ${15 - ok} refused (${answers.at(-1) ? short(answers.at(-1) as Answer) : "-"})`,
    );
  },
  async "nested-html"() {
    const cookie = await login(adminName, adminPwd);
    const deep = `${"<div>".repeat(3000)}x`;
    const a = await send(
      "POST",
      "/v1/admin/tg-apps/apps",
      json(
        {
          slug: "attack-deep",
          name: "Deep",
          category: 3,
          botUsername: "attack_deep_bot",
          platforms: ["ios"],
          shortDescription: "x",
          longDescription: deep,
        },
        { cookie },
      ),
    );
    line(
      "nested-html",
      `POST /v1/admin/tg-apps/apps, longDescription ${deep.length} B, 3000 nested <div> (unclosed)`,
      short(a),
    );
    const list = JSON.parse((await send("GET", "/v1/content/tg-apps?locale=en")).body) as {
      data?: { items?: { slug: string }[] };
    };
    const slug = list.data?.items?.[0]?.slug ?? "unknown";
    const times: number[] = [];
    for (let i = 0; i < 5; i++)
      times.push((await send("GET", `/telegram-apps/${slug}?fresh=${Date.now()}-${i}`)).ms);
    line("nested-html", `5 views of /telegram-apps/${slug}?fresh=<new each time>`, `ms: ${times.join(", ")}`);
  },
  async "gzip-label"() {
    const a = await send("POST", "/v1/user/public/sendCode", {
      body: "this is not gzip",
      headers: { "content-type": "application/json", "content-encoding": "gzip", origin: base },
    });
    line("gzip-label", "POST /v1/user/public/sendCode, Content-Encoding: gzip, body not gzip", short(a));
  },
  async "ten-mb"() {
    const cookie = await login(userName, userPwd);
    const body = Buffer.alloc(10 * 1024 * 1024, "x");
    const a = await send("POST", "/v1/paper/orders", {
      body,
      headers: { "content-type": "application/json", origin: base, cookie, paptrading: "1" },
    });
    line("ten-mb", "POST /v1/paper/orders (signed path), 10 MB body", `${short(a)} (${a.bytes} B)`);
  },
  async "tracking-error"() {
    // 50 empty events: 151 bytes (the 152 with a trailing newline).
    const body = `[${Array(50).fill("{}").join(",")}]\n`;
    const a = await send("POST", "/v1/buried/log/info", {
      body,
      headers: { "content-type": "application/json", origin: base },
    });
    line(
      "tracking-error",
      `POST /v1/buried/log/info, ${Buffer.byteLength(body)} B: 50 empty events`,
      `${a.status} ${code(a)}, answer ${a.bytes} B`,
    );
  },
  async "ws-origin"() {
    const cookie = await login(userName, userPwd);
    for (const origin of ["https://evil.example", base]) {
      const status = await new Promise<string>((resolve) => {
        const req = http.request({
          host: hostname,
          port,
          path: "/v1/ws/user",
          headers: {
            connection: "Upgrade",
            upgrade: "websocket",
            "sec-websocket-version": "13",
            "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
            origin,
            cookie,
          },
        });
        req.on("upgrade", (res, socket) => {
          socket.destroy();
          resolve(`${res.statusCode} (upgraded)`);
        });
        req.on("response", (res) => {
          res.resume();
          resolve(`${res.statusCode} (not upgraded)`);
        });
        req.on("error", (e) => resolve(`error ${e.message}`));
        req.end();
      });
      line("ws-origin", `GET /v1/ws/user upgrade, session cookie, Origin ${origin}`, status);
    }
  },
  async "foreign-host"() {
    for (const path of ["/", "/sitemap.xml", "/airdrops"]) {
      const a = await send("GET", path, { headers: { host: "evil.example", accept: "text/html" } });
      const csp = String(a.headers["content-security-policy"] ?? "");
      line(
        "foreign-host",
        `GET ${path} with Host: evil.example`,
        `${a.status}; "evil.example" in body: ${a.body.includes("evil.example")}, in CSP: ${csp.includes("evil.example")}, in Location: ${String(a.headers.location ?? "").includes("evil.example")}`,
      );
    }
  },
};

const chosen = process.argv.slice(2);
for (const [name, run] of Object.entries(attacks)) {
  if (chosen.length > 0 && !chosen.includes(name)) continue;
  try {
    await run();
  } catch (err) {
    line(name, "(failed to run)", String(err));
  }
}

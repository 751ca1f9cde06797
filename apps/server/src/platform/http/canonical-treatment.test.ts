import http from "node:http";
import type { AddressInfo } from "node:net";
import { Code, SESSION_COOKIE } from "@meridian/contracts";
import fc from "fast-check";
import type { FastifyInstance, RouteOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { securityRoutes } from "../../modules/accounts/index.ts";
import { moduleRoutes } from "../../modules/index.ts";
import { loginWithMail, readsMailOf } from "../../test/accounts.ts";
import { LogOutbox } from "../../test/log-outbox.ts";
import { MailSink } from "../../test/mail-sink.ts";
import { encodingVariant } from "../../test/path-variants.ts";
import { Agent, HOST, ORIGIN, type TestServer } from "../../test/security-agent.ts";
import { buildTestApp } from "../../test/support.ts";
import { type RouteEntry, routeTable, samplePath } from "./route-table.ts";

/**
 * The canonical path property over the whole route table, on a real socket (inject
 * resolves dot segments itself, so it could not send the variants): every encoding of a
 * route's path gets exactly the signing, login-encryption, admin and CSRF treatment of
 * the path itself, and reaches the same route, or is refused with 400.
 *
 * Handlers are replaced by a stub that answers which route was reached, so no probe
 * changes state; the checks in front of them (gateway hooks, guards) run for real.
 */

const REACHED = "REACHED";
let stubbing = false;
let app: FastifyInstance;
let port: number;
let boundCookie: string;
let plainCookie: string;

function stubHandlers(api: FastifyInstance): void {
  api.addHook("onRoute", (route: RouteOptions) => {
    if (route.url === "/v1/mix/config/gatewaySignConfig") return;
    const original = route.handler;
    route.handler = async function stubbed(request, reply) {
      if (!stubbing) return original.call(this, request, reply);
      return { code: REACHED, msg: route.url, data: null };
    };
    // Route-level onRequest hooks are per-route rate limits, keyed by the route pattern
    // (never the path); they would trip across thousands of probes from one address.
    const hooks = route.onRequest === undefined ? [] : [route.onRequest].flat();
    if (hooks.length > 0)
      route.onRequest = hooks.map(
        (hook) =>
          async function maybeLimited(this: FastifyInstance, request, reply) {
            if (!stubbing) await hook.call(this, request, reply, () => undefined);
          },
      ) as RouteOptions["onRequest"];
  });
}

interface Probe {
  name: "sign" | "encrypt" | "admin" | "csrf";
  cookie: () => string | undefined;
  origin: string;
  body: string;
}

const PROBES: Probe[] = [
  { name: "sign", cookie: () => boundCookie, origin: ORIGIN, body: "{}" },
  { name: "encrypt", cookie: () => undefined, origin: ORIGIN, body: '{"loginName":"a@b.c","pwd":"plain"}' },
  { name: "admin", cookie: () => plainCookie, origin: ORIGIN, body: "{}" },
  { name: "csrf", cookie: () => plainCookie, origin: "https://evil.example", body: "{}" },
];

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

/** One request with the target exactly as given; answers `status code msg`. */
function send(method: string, target: string, probe: Probe): Promise<string> {
  const cookie = probe.cookie();
  const hasBody = method !== "GET" && method !== "DELETE";
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: "127.0.0.1",
        port,
        method,
        path: target,
        agent,
        headers: {
          host: HOST,
          origin: probe.origin,
          paptrading: "1",
          ...(cookie === undefined ? {} : { cookie }),
          ...(hasBody ? { "content-type": "application/json" } : {}),
        },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => {
          let env: { code?: string; msg?: string } = {};
          try {
            env = JSON.parse(text) as typeof env;
          } catch {
            env = { code: "non-json", msg: text.slice(0, 80) };
          }
          resolve(`${res.statusCode} ${env.code} ${env.msg}`);
        });
      },
    );
    req.on("error", reject);
    req.end(hasBody ? probe.body : undefined);
  });
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
let routes: RouteEntry[] = [];

beforeAll(async () => {
  let accounts: FastifyInstance["accounts"] | undefined;
  const outbox = new LogOutbox();
  app = await buildTestApp({
    logger: outbox.logger,
    modules: [
      stubHandlers,
      (api, platform) => {
        securityRoutes(api, platform);
        accounts = api.accounts;
      },
      ...moduleRoutes.filter((m) => m !== securityRoutes),
    ],
  });
  if (accounts === undefined) throw new Error("accounts module missing");
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as AddressInfo).port;
  const service = accounts.service;
  const pwd = "password-123";
  await service.createUser({
    email: "bound@example.com",
    areaCode: null,
    mobile: null,
    phoneKey: null,
    password: pwd,
    role: "user",
  });
  await service.createUser({
    email: "plain@example.com",
    areaCode: null,
    mobile: null,
    phoneKey: null,
    password: pwd,
    role: "user",
  });
  // The bound session logs in as the web client does (encrypted, device key bound).
  const server: TestServer = {
    app,
    module: accounts,
    clock: {
      get now() {
        return Date.now();
      },
    },
    reports: [],
    // No SMTP here: the new-device login codes are read from the log.
    mail: new MailSink(),
    outbox,
    sms: [],
  };
  readsMailOf(service, outbox);
  const bound = new Agent(server);
  const login = await bound.login("bound@example.com", pwd);
  expect(login.code).toBe(Code.OK);
  boundCookie = bound.cookieHeader();
  const plain = await loginWithMail(service, "plain@example.com", pwd);
  plainCookie = `${SESSION_COOKIE}=${plain.token}`;
  routes = routeTable(app).filter(
    (r) => METHODS.has(r.method) && r.url.startsWith("/v1/") && r.url !== "/v1/*",
  );
  stubbing = true;
}, 60_000);

afterAll(async () => {
  stubbing = false;
  agent.destroy();
  await app?.close();
});

describe("one canonical path for routing and every check", () => {
  it("the route table's flags are what the server does on the canonical path", async () => {
    expect(routes.length).toBeGreaterThan(100);
    for (const r of routes) {
      const path = samplePath(r.url, "7");
      const [sign, encrypt, admin, csrf] = await Promise.all(PROBES.map((p) => send(r.method, path, p)));
      const where = `${r.method} ${r.url}`;
      if (r.sign !== undefined) expect(sign, where).toMatch(/^200 00020 /);
      else expect(sign, where).not.toMatch(/ 0002\d /);
      if (r.encrypted) expect(encrypt, where).not.toMatch(new RegExp(`^200 ${REACHED}`));
      if (r.admin) expect(admin, where).toMatch(/^403 10403 Administrators only/);
      else expect(admin, where).not.toMatch(/Administrators only/);
      // An encrypted route decrypts before its guard runs, so a plain cross-site body is refused
      // there (11020); a sealed one would then meet the same-origin check.
      if (r.csrf && r.method !== "GET")
        expect(csrf, where).toMatch(
          r.encrypted ? /^(403 10403 Cross-site|200 11020 )/ : /^403 10403 Cross-site/,
        );
    }
  }, 120_000);

  it("every encoding of every route's path gets the path's treatment, or 400", async () => {
    let refused = 0;
    let equal = 0;
    for (const r of routes) {
      const path = samplePath(r.url, "7");
      const expected = await Promise.all(PROBES.map((p) => send(r.method, path, p)));
      await fc.assert(
        fc.asyncProperty(fc.infiniteStream(fc.nat()), fc.boolean(), async (choices, slash) => {
          const variant = encodingVariant(path, choices, { encodedSlash: slash });
          const got = await Promise.all(PROBES.map((p) => send(r.method, variant.raw, p)));
          if (variant.encodedSlash) {
            for (const g of got) expect(g, `${r.method} ${variant.raw}`).toMatch(/^400 10410 /);
            refused++;
          } else {
            expect(got, `${r.method} ${variant.raw} (canonical ${path})`).toEqual(expected);
            equal++;
          }
        }),
        { numRuns: 8, seed: 15 },
      );
    }
    expect(refused).toBeGreaterThan(0);
    expect(equal).toBeGreaterThan(routes.length * 4);
  }, 300_000);

  it("a case change is another path: it never reaches a route without that route's checks", async () => {
    for (const r of routes) {
      const path = samplePath(r.url, "7");
      const upper = path.replace(/\/v1\/([a-z])/, (_, c: string) => `/v1/${c.toUpperCase()}`);
      for (const p of PROBES) {
        const got = await send(r.method, upper, p);
        // No route is written with a capital after /v1/: the changed path routes nowhere.
        expect(got, `${r.method} ${upper}`).toMatch(/^40[45] /);
      }
    }
  }, 120_000);

  it("refuses raw backslashes, encoded backslashes and control characters with 400", async () => {
    for (const raw of [
      "/v1/user\\login",
      "/v1\\user/login",
      "/v1/user/%5Clogin",
      "/v1/user/login%00",
      "/%2F%2Fevil.example/",
      "/v1/user/log%zzin",
    ]) {
      for (const p of PROBES) expect(await send("POST", raw, p), raw).toMatch(/^400 10410 /);
    }
  });
});

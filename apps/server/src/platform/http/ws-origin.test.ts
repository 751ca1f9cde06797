import http from "node:http";
import { FuturesPath, MarketPath, PaperPath } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountsService } from "../../modules/accounts/index.ts";
import { loginNewUser } from "../../test/accounts.ts";
import { buildTestApp } from "../../test/support.ts";
import { isSiteOrigin } from "./public-origin.ts";

let app: FastifyInstance;
let port = 0;
let cookie = "";

beforeAll(async () => {
  let service: AccountsService | undefined;
  app = await buildTestApp({
    routes(api) {
      service = api.accounts.service;
    },
  });
  if (service === undefined) throw new Error("the accounts module is missing");
  cookie = await loginNewUser(service);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const address = app.server.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  port = address.port;
}, 60_000);
afterAll(() => app.close());

/** The handshake's answer: 101 when upgraded, else the HTTP status the server refused it with. */
function handshake(path: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({
      host: "127.0.0.1",
      port,
      path,
      agent: false,
      headers: {
        connection: "Upgrade",
        upgrade: "websocket",
        "sec-websocket-version": "13",
        "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==",
        ...headers,
      },
    });
    req.on("upgrade", (res, socket) => {
      socket.destroy();
      resolve({ status: res.statusCode ?? 0, body: "" });
    });
    req.on("response", (res) => {
      let body = "";
      res.on("data", (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** Opens `/v1/ws/user` as a browser would (Origin and cookie) and collects the first message, or null when refused. */
function firstMessage(origin: string | undefined): Promise<string | null> {
  return new Promise((resolve) => {
    const headers: Record<string, string> = { cookie };
    if (origin !== undefined) headers.origin = origin;
    // Node's WebSocket (undici) takes headers as an extension of the standard constructor.
    const Ctor = WebSocket as unknown as new (
      url: string,
      init: { headers: Record<string, string> },
    ) => WebSocket;
    const ws = new Ctor(`ws://127.0.0.1:${port}${PaperPath.WS}`, { headers });
    // No timer: a refused handshake ends in error and close, however slow the machine.
    ws.addEventListener("message", (e) => {
      ws.close();
      resolve(String(e.data));
    });
    ws.addEventListener("error", () => resolve(null));
    ws.addEventListener("close", () => resolve(null));
  });
}

describe("WebSocket origin check", () => {
  it("pushes balances to a socket the site itself opened", async () => {
    const message = await firstMessage(`http://127.0.0.1:${port}`);
    expect(JSON.parse(message ?? "{}").event).toBe("balance");
  });

  it("refuses the upgrade from another origin before any data (403 envelope)", async () => {
    expect(await firstMessage("https://evil.example")).toBeNull();
    for (const path of [PaperPath.WS, FuturesPath.WS, MarketPath.WS]) {
      const answer = await handshake(path, { cookie, origin: "https://evil.example" });
      expect(answer.status, path).toBe(403);
      expect(JSON.parse(answer.body).code).toBe("10403");
    }
    for (const origin of [
      "null",
      `http://127.0.0.1:${port}.evil.example`,
      `https://127.0.0.1:${port}@evil.example`,
    ]) {
      expect((await handshake(PaperPath.WS, { cookie, origin })).status, origin).toBe(403);
    }
  });

  it("lets a client without Origin (not a browser) upgrade", async () => {
    expect((await handshake(PaperPath.WS, { cookie })).status).toBe(101);
    expect(JSON.parse((await firstMessage(undefined)) ?? "{}").event).toBe("balance");
  });

  it("refuses an upgrade on a path that is no socket at once (404), and sockets still open after", async () => {
    for (const path of [
      "/foo",
      "/airdrops",
      PaperPath.ORDERS,
      "/v1/nowhere",
      "/v1/ws/nowhere",
      "/%2e%2e/foo",
    ]) {
      const answer = await handshake(path, { cookie });
      expect(answer.status, path).toBeGreaterThanOrEqual(400);
      expect(answer.status, path).toBeLessThan(500);
      expect(JSON.parse(answer.body).code, path).toMatch(/^104/);
    }
    expect((await handshake(PaperPath.WS, { cookie })).status).toBe(101);
  });

  it("answers a plain GET of a socket endpoint 426 in the envelope", async () => {
    const res = await app.inject({ url: PaperPath.WS });
    expect(res.statusCode).toBe(426);
    expect(res.json()).toMatchObject({ code: "10426", data: null });
  });
});

describe("isSiteOrigin", () => {
  const production = {
    publicDomains: ["meridian.example", "ja.meridian.example", "localhost:3000"],
    isProduction: true,
  };

  it("takes the configured domains, https only in production (loopback excepted)", () => {
    expect(isSiteOrigin("https://meridian.example", "anything", production)).toBe(true);
    expect(isSiteOrigin("https://ja.meridian.example", undefined, production)).toBe(true);
    expect(isSiteOrigin("http://meridian.example", "meridian.example", production)).toBe(false);
    expect(isSiteOrigin("http://localhost:3000", "localhost:3000", production)).toBe(true);
    expect(isSiteOrigin("https://evil.example", "evil.example", production)).toBe(false);
    expect(isSiteOrigin("https://meridian.example.evil.example", undefined, production)).toBe(false);
    expect(isSiteOrigin("null", "meridian.example", production)).toBe(false);
    expect(isSiteOrigin("https://meridian.example/path", "meridian.example", production)).toBe(false);
    expect(isSiteOrigin("chrome-extension://meridian.example", "meridian.example", production)).toBe(false);
  });

  it("with no list (local run), only the host the request was sent to", () => {
    const local = { publicDomains: [], isProduction: false };
    expect(isSiteOrigin("http://localhost:3000", "localhost:3000", local)).toBe(true);
    expect(isSiteOrigin("http://localhost:3001", "localhost:3000", local)).toBe(false);
    expect(isSiteOrigin("http://localhost:3000", undefined, local)).toBe(false);
  });
});

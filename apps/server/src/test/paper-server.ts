/**
 * A real paper-trading server for the crash test and `bench:orders`: the full module
 * list (market feed running), no pages, on `PORT` with `DATA_DIR`/`DATABASE_URL` from the
 * environment. It creates (or reuses) the user `PAPER_USER_EMAIL`, logs in, and prints
 * one JSON line `{"ready":true,"cookie":"mer_token=..."}` once listening.
 *
 * With `PAPER_USERS=n` it logs in n users (`<i>-<PAPER_USER_EMAIL>`) and prints their
 * cookies as `cookies` too (the cluster test and `bench:cluster` run several of these
 * servers on one PostgreSQL and Redis; `TEST_SERVER_LOG=1` logs warnings to stderr).
 *
 * Run: `PORT=4150 DATA_DIR=/tmp/x npx node apps/server/src/test/paper-server.ts`
 */
import { SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import { securityRoutes } from "../modules/accounts/index.ts";
import { siteModules } from "../modules/index.ts";
import { loadConfig } from "../platform/config.ts";

const email = process.env.PAPER_USER_EMAIL ?? "paper-bench@example.com";
const password = "paper-password-123";
let accounts: FastifyInstance["accounts"] | undefined;
let role: FastifyInstance["writer"]["role"] | undefined;
const config = loadConfig({ SEED_DEMO_DATA: "false", ...process.env });
const app = await buildApp({
  config,
  ssr: false,
  logger: process.env.TEST_SERVER_LOG === "1" ? { level: "warn" } : false,
  // NOTE: securityRoutes is first in the module list (its gateway hooks must cover the rest).
  modules: [
    (api, platform) => {
      securityRoutes(api, platform);
      accounts = api.accounts;
    },
    ...siteModules({ onBuilt: (core) => (role = core.writer?.role) }).filter((m) => m !== securityRoutes),
  ],
});
if (accounts === undefined) throw new Error("accounts module missing");
const service = accounts.service;
const meta = { ip: "127.0.0.1", userAgent: "paper-test-server", device: undefined };
async function login(loginName: string): Promise<string> {
  const creds = { loginName, pwd: password } as Parameters<typeof service.login>[0];
  let result = await service.login(creds, meta).catch(() => undefined);
  if (result === undefined) {
    await service
      .createUser({ email: loginName, areaCode: null, mobile: null, phoneKey: null, password, role: "user" })
      .catch(() => undefined);
    result = await service.login(creds, meta);
  }
  if (result.kind !== "session") throw new Error("login needs a second factor");
  return `${SESSION_COOKIE}=${result.session.token}`;
}
const cookie = await login(email);
const cookies: string[] = [];
for (let i = 0; i < Number(process.env.PAPER_USERS ?? 0); i++) cookies.push(await login(`${i}-${email}`));
await app.listen({ port: config.port, host: "127.0.0.1" });
process.stdout.write(
  `${JSON.stringify({ ready: true, cookie, cookies, role: role?.state ?? null, instance: role?.id ?? null })}\n`,
);
const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

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
 * With `PAPER_DEVICE_ALG` (ECDSA_P256, RSA1024, RSA2048) and `PAPER_DEVICE_PUBLIC_KEY`
 * (SPKI DER, base64) the first user's session is bound to that device key, as a
 * browser's login binds the key it proved: every signed write of that session
 * (`/v1/paper/...`) must then carry the device signature (`bench:orders` signs them).
 *
 * Run: `PORT=4150 DATA_DIR=/tmp/x npx node apps/server/src/test/paper-server.ts`
 */
import crypto from "node:crypto";
import { SESSION_COOKIE } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import { buildApp } from "../app.ts";
import { type RequestMeta, securityRoutes } from "../modules/accounts/index.ts";
import { siteModules } from "../modules/index.ts";
import { loadConfig } from "../platform/config.ts";
import { loginWithMail, readsMailOf } from "./accounts.ts";
import { LogOutbox } from "./log-outbox.ts";

const email = process.env.PAPER_USER_EMAIL ?? "paper-bench@example.com";
const password = "paper-password-123";
let accounts: FastifyInstance["accounts"] | undefined;
let role: FastifyInstance["writer"]["role"] | undefined;
const config = loadConfig({ SEED_DEMO_DATA: "false", ...process.env });
// The log is the outbox (no SMTP_URL): the first login from this "device" asks for a mailed code.
const outbox = new LogOutbox();
const app = await buildApp({
  config,
  ssr: false,
  logger: outbox.loggerEchoing(process.env.TEST_SERVER_LOG === "1" ? process.stderr : undefined),
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
readsMailOf(service, outbox);
// One stable device (as a browser's cookie): after its first login, a restart logs in without a code.
const baseMeta: RequestMeta & { deviceId: string } = {
  ip: "127.0.0.1",
  userAgent: "paper-test-server",
  device: undefined,
  deviceId: crypto.createHash("sha256").update("paper-test-server").digest("hex"),
};
const deviceAlg = process.env.PAPER_DEVICE_ALG;
const devicePublicKey = process.env.PAPER_DEVICE_PUBLIC_KEY;
/** The device binding of the first user's session, when asked for (the key id as gateway-sign computes it). */
const device =
  deviceAlg !== undefined && deviceAlg !== "" && devicePublicKey !== undefined && devicePublicKey !== ""
    ? {
        alg: deviceAlg,
        publicKey: devicePublicKey,
        keyId: crypto
          .createHash("sha256")
          .update(Buffer.from(devicePublicKey, "base64"))
          .digest("base64url")
          .slice(0, 22),
      }
    : undefined;
async function login(loginName: string, meta: RequestMeta = baseMeta): Promise<string> {
  let session = await loginWithMail(service, loginName, password, meta).catch(() => undefined);
  if (session === undefined) {
    await service
      .createUser({ email: loginName, areaCode: null, mobile: null, phoneKey: null, password, role: "user" })
      .catch(() => undefined);
    session = await loginWithMail(service, loginName, password, meta);
  }
  return `${SESSION_COOKIE}=${session.token}`;
}
const cookie = await login(email, { ...baseMeta, device });
const cookies: string[] = [];
for (let i = 0; i < Number(process.env.PAPER_USERS ?? 0); i++) cookies.push(await login(`${i}-${email}`));
await app.listen({ port: config.port, host: "127.0.0.1" });
process.stdout.write(
  `${JSON.stringify({ ready: true, cookie, cookies, role: role?.state ?? null, instance: role?.id ?? null })}\n`,
);
const stop = () => void app.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);

/// <reference lib="dom" />

import { GatewaySecurity, MemoryKeyStore } from "@meridian/client";
import type { FastifyInstance } from "fastify";
import { afterEach, beforeEach } from "vitest";
import {
  LogTransport,
  registerSecurityModules,
  type SecurityModule,
  type SecurityModuleOptions,
  SmtpTransport,
} from "../modules/accounts/index.ts";
import { generateServerKeys, type ServerKeys, type SignSettings } from "../modules/gateway-sign/index.ts";
import type { PlatformDb } from "../platform/db/internal.ts";
import { openSqlite } from "../platform/db/sqlite.ts";
import type { DbTarget } from "./db-targets.ts";
import type { LogOutbox } from "./log-outbox.ts";
import { MailSink } from "./mail-sink.ts";
import { buildTestApp } from "./support.ts";

export const HOST = "meridian.test";
export const ORIGIN = `http://${HOST}`;

/** One server key for the whole test run: RSA generation is slow on a shared CPU. */
let sharedKeys: ServerKeys | undefined;
export function testServerKeys(): ServerKeys {
  sharedKeys ??= generateServerKeys();
  return sharedKeys;
}

export interface TestServer {
  app: FastifyInstance;
  module: SecurityModule;
  clock: { now: number };
  reports: { event: string; reason: string }[];
  /** Every e-mail the server sent, received by a real SMTP server. */
  mail: MailSink;
  /** SMS texts (no SMS gateway: they go to the log transport), newest last. */
  sms: { to: string; text: string }[];
  /** A server without SMTP (its messages in its log): e-mailed codes are read here, not from `mail`. */
  outbox?: LogOutbox;
}

/**
 * An API-only app with the security modules on a settable clock; e-mail goes over SMTP to
 * a sink that closes with the app. `db` defaults to an in-memory SQLite.
 */
export async function securityApp(
  o: Partial<
    Pick<SecurityModuleOptions, "signSettings" | "serverKeys" | "allowPlainLogin" | "attempts"> & {
      db: PlatformDb;
      /** More environment for the accounts settings (third-party providers, for one). */
      env: Record<string, string>;
    }
  > = {},
): Promise<TestServer> {
  const clock = { now: Date.now() };
  let module: SecurityModule | undefined;
  const mail = await new MailSink().start();
  const sms: { to: string; text: string }[] = [];
  const smsLog = {
    info: (obj: object, msg: string) => {
      const m = (obj as { mail?: { to?: string } }).mail;
      sms.push({ to: m?.to ?? "", text: msg });
    },
    warn: () => undefined,
  };
  const transport = new SmtpTransport(
    mail.url,
    "Meridian <no-reply@meridian.test>",
    new LogTransport(smsLog),
  );
  const app = await buildTestApp({
    db: o.db ?? openSqlite(":memory:"),
    modules: [
      (api, platform) => {
        module = registerSecurityModules(api, {
          db: platform.db,
          env: { NODE_ENV: "test", PUBLIC_DOMAINS: HOST, ...o.env },
          transport,
          now: () => clock.now,
          serverKeys: o.serverKeys ?? testServerKeys(),
          ...(o.signSettings === undefined ? {} : { signSettings: o.signSettings }),
          ...(o.allowPlainLogin === undefined ? {} : { allowPlainLogin: o.allowPlainLogin }),
          ...(o.attempts === undefined ? {} : { attempts: o.attempts }),
        });
        api.decorate("accounts", module);
      },
    ],
  });
  if (module === undefined) throw new Error("module not registered");
  app.addHook("onClose", () => mail.stop());
  return { app, module, clock, reports: [], mail, sms };
}

export interface Answer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  code: string;
  msg: string;
  data: T;
}

/**
 * A browser stand-in: a cookie jar, same-origin headers, and the real client security
 * code (`packages/client/src/security`) for encryption and signing.
 */
export class Agent {
  readonly server: TestServer;
  readonly security: GatewaySecurity;
  readonly cookies = new Map<string, string>();
  origin: string | undefined = ORIGIN;
  /** The client address the server sees (inject's default is 127.0.0.1). */
  remoteAddress: string | undefined;

  constructor(server: TestServer, issuerJwk?: JsonWebKey) {
    this.server = server;
    this.security = new GatewaySecurity({
      fetchConfig: async () =>
        (await this.call<{ gatewaySignConfig: unknown }>("GET", "/v1/mix/config/gatewaySignConfig")).data
          .gatewaySignConfig,
      report: (event, reason) => server.reports.push({ event, reason }),
      store: new MemoryKeyStore(),
      ...(issuerJwk === undefined ? {} : { issuerJwk }),
    });
  }

  cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  /** Sends a request as the web client would: encrypted body on login paths, signing headers when bound. */
  async call<T = unknown>(
    method: "GET" | "POST",
    url: string,
    body?: unknown,
    extra: { headers?: Record<string, string>; raw?: boolean; tm?: number } = {},
  ): Promise<Answer<T>> {
    const path = url.split("?")[0] ?? url;
    const payload =
      extra.raw === true || method === "GET" ? body : await this.security.transformBody({ path, body });
    const text = payload === undefined ? undefined : JSON.stringify(payload);
    const time = extra.tm ?? this.server.clock.now;
    const signHeaders =
      extra.raw === true ? undefined : await this.security.beforeSend({ path, url, body: text, time });
    const headers: Record<string, string> = {
      host: HOST,
      tm: String(time),
      ...(this.origin === undefined ? {} : { origin: this.origin }),
      ...(text === undefined ? {} : { "content-type": "application/json" }),
      ...(this.cookies.size > 0 ? { cookie: this.cookieHeader() } : {}),
      ...signHeaders,
      ...extra.headers,
    };
    const res = await this.server.app.inject({
      method,
      url,
      headers,
      ...(this.remoteAddress === undefined ? {} : { remoteAddress: this.remoteAddress }),
      ...(text === undefined ? {} : { payload: text }),
    });
    const setCookie = res.headers["set-cookie"];
    for (const line of Array.isArray(setCookie) ? setCookie : setCookie === undefined ? [] : [setCookie]) {
      const [pair = ""] = line.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value === "" || /Max-Age=0/.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    const env = res.json() as { code: string; msg: string; data: T };
    return { status: res.statusCode, headers: res.headers, ...env };
  }

  /** The latest 6-digit code sent to `recipient`: from the SMTP sink for e-mail, the SMS log otherwise. */
  async latestCode(recipient: string): Promise<string> {
    if (recipient.includes("@")) return this.server.mail.code(recipient.toLowerCase());
    const text = this.server.sms.filter((m) => m.to === recipient).at(-1)?.text ?? "";
    const match = [...text.matchAll(/\b(\d{6})\b/g)].at(-1);
    if (match?.[1] === undefined) throw new Error(`no code for ${recipient}`);
    return match[1];
  }

  async registerEmail(email: string, pwd: string): Promise<string> {
    await this.call("POST", "/v1/user/public/sendCode", { bizType: "register", email });
    const emailCode = await this.latestCode(email);
    const res = await this.call<{ userInfo: { userId: string } }>("POST", "/v1/user/register/email", {
      email,
      emailCode,
      pwd,
    });
    if (res.code !== "00000") throw new Error(`register failed: ${res.code} ${res.msg}`);
    await this.security.onLoginSuccess(res.data);
    return res.data.userInfo.userId;
  }

  /**
   * The password step as the login page sends it. When the server asks for the e-mail (or
   * SMS) code because this agent is a device new to the account (`newDevice`, no second
   * factor bound), it answers with the code from the mail, as the login page's user would,
   * and returns that step's answer; any other challenge is returned for the test to answer.
   */
  async login(loginName: string, pwd: string): Promise<Answer<Record<string, unknown>>> {
    const recipient = loginName.toLowerCase();
    const mailed = this.#mailCount(recipient);
    const res = await this.call<Record<string, unknown>>("POST", "/v1/user/login", { loginName, pwd });
    if (res.code === "00000" && res.data.verifyRequired === true && res.data.newDevice === true) {
      const methods = res.data.methods as string[];
      const code = await this.#codeAfter(recipient, mailed);
      const step = await this.call<Record<string, unknown>>(
        "POST",
        "/v1/user/login/verify-login",
        methods.includes("email")
          ? { verifyToken: res.data.verifyToken, emailCode: code }
          : { verifyToken: res.data.verifyToken, mobileCode: code },
      );
      if (step.code === "00000") await this.security.onLoginSuccess(step.data);
      return step;
    }
    if (res.code === "00000" && res.data.verifyRequired === false)
      await this.security.onLoginSuccess(res.data);
    return res;
  }

  #mailCount(recipient: string): number {
    if (!recipient.includes("@")) return this.server.sms.filter((m) => m.to === recipient).length;
    return (this.server.outbox ?? this.server.mail).to(recipient).length;
  }

  /** The code of the newest message to `recipient` after the first `after` ones. */
  async #codeAfter(recipient: string, after: number): Promise<string> {
    if (!recipient.includes("@")) return this.latestCode(recipient);
    const outbox = this.server.outbox;
    return outbox === undefined ? this.server.mail.code(recipient, after) : outbox.code(recipient, after);
  }
}

export function settingsWith(patch: Partial<SignSettings>): SignSettings {
  return {
    open: true,
    defaultAlgorithm: "ECDSA_P256",
    encryptAlgorithm: "v2-rsa-oaep256-a256gcm",
    // The signed routes declare their modes (route config `sign`); these are extras.
    exactUrls: {},
    prefixUrls: {},
    ...patch,
  };
}

/**
 * A fresh `securityApp` on `target`'s database for every test of the calling `describe`
 * (registered as its beforeEach and afterEach): read `run.server` inside the tests.
 */
export function securityAppPerTest(target: DbTarget): { readonly server: TestServer } {
  let server: TestServer | undefined;
  let cleanup: () => Promise<void> = async () => {};
  beforeEach(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    server = await securityApp({ db: opened.db() });
  });
  afterEach(async () => {
    await server?.app.close();
    await cleanup();
  });
  return {
    get server(): TestServer {
      if (server === undefined) throw new Error("securityAppPerTest: read run.server inside a test");
      return server;
    },
  };
}

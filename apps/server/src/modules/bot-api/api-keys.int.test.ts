import crypto from "node:crypto";
import { Writable } from "node:stream";
import {
  API_KEY_TTL_MS,
  ApiKeyCode,
  type ApiKeyView,
  Code,
  type CreatedApiKey,
  type Envelope,
  SESSION_COOKIE,
  SecurityCode,
} from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { type AccountsTestApp, accountsTestApp, callApi } from "../../test/accounts.ts";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import { testRedis } from "../../test/redis.ts";
import { totp } from "../accounts/index.ts";
import { tradingCore } from "../index.ts";
import { LocalVenue } from "../paper/index.ts";
import { prehash, signHmac } from "./signature.ts";

const targets = reopenableDbTargets("apikeys");
const sharedRedis = process.env.TEST_REDIS_URL === undefined ? undefined : testRedis("apikeys");
const KEYS = "/v1/user/api-keys";
const body = (o: Record<string, unknown> = {}) => ({
  label: "grid bot",
  permissions: ["read", "spot_trade"],
  passphrase: "Passphrase123",
  ...o,
});

describe.each(targets)("API keys on $name", (target: DbTarget) => {
  let env: Awaited<ReturnType<DbTarget["open"]>>;
  let db: PlatformDb;
  let run: AccountsTestApp;
  const clock = { now: Date.now() };
  const logs: string[] = [];

  beforeAll(async () => {
    env = await target.open();
    db = env.db();
    run = await accountsTestApp({
      db,
      logger: {
        level: "trace",
        stream: new Writable({
          write(chunk, _enc, done) {
            logs.push(String(chunk));
            done();
          },
        }),
      },
      modules: [
        tradingCore({
          writer: false,
          venue: new LocalVenue({ ladder: false }),
          botApi: { now: () => clock.now },
        }),
      ],
    });
  });
  afterAll(async () => {
    await run.app.close();
    await db.close();
    await env.cleanup();
  });

  const call = <T>(cookie: string, method: "GET" | "POST" | "DELETE", url: string, b?: unknown) =>
    callApi<T>(run.app, cookie, method, url, b);

  /** A signed `/api/v2` GET as a Bitget client sends it (to `app`, default the suite's). */
  async function signedGet(
    key: { apiKey: string; passphrase?: string },
    url: string,
    sign: (text: string) => string,
    headers: Record<string, string> = { paptrading: "1" },
    signedQuery?: string,
    app = run.app,
  ): Promise<{ status: number; body: Envelope<unknown> }> {
    const ts = String(clock.now);
    const [path = "", wire = ""] = url.split("?");
    const query = signedQuery ?? wire;
    const res = await app.inject({
      method: "GET",
      url,
      headers: {
        "access-key": key.apiKey,
        "access-sign": sign(prehash(ts, "GET", path, query, "")),
        "access-timestamp": ts,
        "access-passphrase": key.passphrase ?? "Passphrase123",
        ...headers,
      },
    });
    return { status: res.statusCode, body: res.json() };
  }

  it("creates a key: the secret once, sealed at rest, 90 days without IPs; lists, edits, deletes", async () => {
    const cookie = await run.login();
    const made = await call<CreatedApiKey>(cookie, "POST", KEYS, body());
    expect(made.code).toBe(Code.OK);
    expect(made.data.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(made.data).toMatchObject({ signType: "HMAC", permissions: ["read", "spot_trade"], ips: [] });
    expect(made.data.expiresAt).toBe(made.data.createdAt + API_KEY_TTL_MS);
    expect(made.data.owner.type).toBe("user");

    const list = await call<ApiKeyView[]>(cookie, "GET", KEYS);
    expect(list.data).toHaveLength(1);
    // The account security page lists the store's keys (the composition root hands the
    // store to the accounts module).
    const page = await call<{ keys: Record<string, unknown>[] }>(cookie, "GET", "/v1/user/security/apiKeys");
    expect(page.data.keys).toEqual([
      expect.objectContaining({ apiKey: made.data.apiKey, label: "grid bot", subAccount: false }),
    ]);
    expect(JSON.stringify(list.data)).not.toContain(made.data.secret ?? "-");
    const row = await db.get<Record<string, unknown>>("SELECT * FROM api_keys WHERE api_key = ?", [
      made.data.apiKey,
    ]);
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(made.data.secret ?? "-");
    expect(stored).not.toContain("Passphrase123");

    const edited = await call<ApiKeyView>(cookie, "POST", `${KEYS}/${made.data.apiKey}`, {
      permissions: ["read", "futures_trade", "transfer"],
      ips: ["203.0.113.7", "10.0.0.0/8", "2001:db8::/32"],
    });
    expect(edited.data).toMatchObject({
      permissions: ["read", "futures_trade", "transfer"],
      expiresAt: null,
    });
    expect(edited.data.ips).toHaveLength(3);

    const other = await run.login();
    expect((await call(other, "GET", KEYS)).data).toEqual([]);
    const foreign = await call(other, "DELETE", `${KEYS}/${made.data.apiKey}`);
    expect(foreign.code).toBe(ApiKeyCode.KEY_NOT_FOUND);
    expect((await call(cookie, "DELETE", `${KEYS}/${made.data.apiKey}`)).code).toBe(Code.OK);
    expect((await call(cookie, "GET", KEYS)).data).toEqual([]);
  });

  it("refuses bad input with 4xx and no withdraw permission", async () => {
    const cookie = await run.login();
    const cases: Record<string, unknown>[] = [
      { permissions: ["read", "withdraw"] },
      { permissions: [] },
      { passphrase: "short" },
      { label: "" },
      { ips: ["300.1.1.1"] },
      { ips: ["10.0.0.0/33"] },
      { ips: Array.from({ length: 31 }, (_, i) => `10.0.0.${i + 1}`) },
      {
        rsaPublicKey:
          "not a key at all, but long enough to pass the length check of one hundred characters ......",
      },
    ];
    for (const c of cases) {
      const res = await run.app.inject({
        method: "POST",
        url: KEYS,
        headers: {
          host: "meridian.test",
          origin: "http://meridian.test",
          cookie,
          "content-type": "application/json",
        },
        payload: JSON.stringify(body(c)),
      });
      expect(res.statusCode, JSON.stringify(c)).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, JSON.stringify(c)).toBeLessThan(500);
    }
    const weak = crypto
      .generateKeyPairSync("rsa", { modulusLength: 1024 })
      .publicKey.export({ type: "spki", format: "pem" });
    expect((await call(cookie, "POST", KEYS, body({ rsaPublicKey: weak }))).code).toBe(
      ApiKeyCode.RSA_KEY_INVALID,
    );
    expect((await call("", "GET", KEYS)).code).not.toBe(Code.OK);
    expect((await call(cookie, "GET", KEYS)).data).toEqual([]);
  });

  it("needs the authenticator code once bound, and e-mails every change", async () => {
    const cookie = await run.login();
    const token = cookie.slice(`${SESSION_COOKIE}=`.length);
    const userId = await run.accounts.sessionUserId(token);
    const user = userId === undefined ? undefined : await run.accounts.repo.userById(userId);
    if (user === undefined || user.email === null) throw new Error("no user");
    const { secret } = await run.accounts.googleSetup(user);
    await run.accounts.googleBind(user.id, totp(secret, Date.now()), "127.0.0.1");

    expect((await call(cookie, "POST", KEYS, body())).code).toBe(ApiKeyCode.SECOND_FACTOR_REQUIRED);
    expect((await call(cookie, "POST", KEYS, body({ googleCode: "000000" }))).code).toBe(
      ApiKeyCode.SECOND_FACTOR_INVALID,
    );
    // The next 30 s step: the bind used this one, and a code counts once.
    const made = await call<CreatedApiKey>(
      cookie,
      "POST",
      KEYS,
      body({ googleCode: totp(secret, Date.now() + 30_000) }),
    );
    expect(made.code).toBe(Code.OK);
    // Without SMTP the messages are written to the log, which this app collects.
    const email = user.email;
    const mail = logs
      .map((line) => JSON.parse(line) as { mail?: { to: string; subject: string }; msg: string })
      .filter((entry) => entry.mail?.to === email);
    expect(mail.map((m) => m.mail?.subject)).toContain("Meridian: API key created");
    expect(JSON.stringify(mail)).not.toContain(made.data.secret ?? "-");
  });

  it("asks a passkey-only account for a step-up at most 5 minutes old", async () => {
    const cookie = await run.login();
    const token = cookie.slice(`${SESSION_COOKIE}=`.length);
    const userId = await run.accounts.sessionUserId(token);
    if (userId === undefined) throw new Error("no user");
    // The passkey itself is not used here: only that the account has one.
    await db.run(
      "INSERT INTO passkeys (id, user_id, public_key, counter, transports, name, created_at) VALUES (?, ?, ?, 0, '', 'Key', ?)",
      [crypto.randomBytes(16).toString("base64url"), userId, "AA", Date.now()],
    );
    const refused = await call(cookie, "POST", KEYS, body());
    expect(refused.code).toBe(SecurityCode.STEP_UP_REQUIRED);
    expect((await call<ApiKeyView[]>(cookie, "GET", KEYS)).data).toEqual([]);
    const tokenHash = crypto.createHash("sha256").update(token).digest("hex");
    await run.accounts.repo.markSteppedUp(tokenHash, Date.now() - 6 * 60_000);
    expect((await call(cookie, "POST", KEYS, body())).code).toBe(SecurityCode.STEP_UP_REQUIRED);
    await run.accounts.repo.markSteppedUp(tokenHash, Date.now());
    expect((await call(cookie, "POST", KEYS, body())).code).toBe(Code.OK);
  });

  it("verifies signatures (HMAC with raw or encoded query, RSA), PAPTRADING, expiry and IPs", async () => {
    const cookie = await run.login();
    const made = (await call<CreatedApiKey>(cookie, "POST", KEYS, body())).data;
    const secret = made.secret ?? "";
    const hmac = (text: string) => signHmac(secret, text);
    const assets = "/api/v2/spot/account/assets";
    expect((await signedGet(made, assets, hmac)).body.code).toBe("00000");
    expect((await signedGet(made, `${assets}?coin=usdt`, hmac)).body).toMatchObject({
      code: "00000",
      data: [{ coin: "USDT" }],
    });
    // Bitget's SDK signs the percent-encoded query, ccxt the raw one: both verify.
    const fills = "/api/v2/spot/trade/fills?symbol=BTCUSDT&idLessThan=9%2C9";
    // Signed over the decoded query, sent encoded: the signature holds, the value is then refused.
    expect((await signedGet(made, fills, hmac, undefined, "symbol=BTCUSDT&idLessThan=9,9")).body.code).toBe(
      "40017",
    );
    expect((await signedGet(made, fills, hmac, undefined, "symbol=BTCUSDT&idLessThan=9,8")).body.code).toBe(
      "40009",
    );
    expect((await signedGet(made, assets, hmac, {})).body.code).toBe("40099");
    expect((await signedGet(made, assets, (t) => signHmac("0".repeat(64), t))).body.code).toBe("40009");
    expect((await signedGet({ ...made, passphrase: "Other12345" }, assets, hmac)).body.code).toBe("40012");

    const pair = crypto.generateKeyPairSync("rsa", { modulusLength: 2048 });
    const rsa = (
      await call<CreatedApiKey>(
        cookie,
        "POST",
        KEYS,
        body({ rsaPublicKey: pair.publicKey.export({ type: "spki", format: "pem" }), ips: ["127.0.0.1"] }),
      )
    ).data;
    expect(rsa.secret).toBeUndefined();
    expect(rsa.signType).toBe("RSA");
    const rsaSign = (text: string) =>
      crypto.sign("sha256", Buffer.from(text), pair.privateKey).toString("base64");
    expect((await signedGet(rsa, assets, rsaSign)).body.code).toBe("00000");
    expect((await signedGet(rsa, assets, hmac)).body.code).toBe("40009");

    const fenced = (await call<CreatedApiKey>(cookie, "POST", KEYS, body({ ips: ["198.51.100.0/24"] }))).data;
    expect((await signedGet(fenced, assets, (t) => signHmac(fenced.secret ?? "", t))).body.code).toBe(
      "40018",
    );

    clock.now += API_KEY_TTL_MS + 10_000;
    try {
      const expired = await signedGet(made, assets, hmac);
      expect(expired).toMatchObject({ status: 400, body: { code: "40006" } });
      // A key with an allow-list does not expire.
      expect((await signedGet(rsa, assets, rsaSign)).body.code).toBe("00000");
    } finally {
      clock.now -= API_KEY_TTL_MS + 10_000;
    }
  });

  it("serves a signed request once, on every instance; checks the signature before the passphrase", async () => {
    const cookie = await run.login();
    const made = (await call<CreatedApiKey>(cookie, "POST", KEYS, body())).data;
    const hmac = (text: string) => signHmac(made.secret ?? "", text);
    const assets = "/api/v2/spot/account/assets";
    clock.now += 1;
    expect((await signedGet(made, assets, hmac)).body.code).toBe("00000");
    // The same key, timestamp and signature again: a replay (ccxt InvalidNonce), also when
    // the signature is spelt otherwise (no Base64 padding, a stray character).
    expect(await signedGet(made, assets, hmac)).toMatchObject({ status: 400, body: { code: "40005" } });
    for (const respell of [
      (s: string) => s.replace(/=+$/, ""),
      (s: string) => `${s.slice(0, 4)}.${s.slice(4)}`,
    ])
      expect((await signedGet(made, assets, (t) => respell(hmac(t)))).body.code).toBe("40005");
    // Two instances on one Redis: served by one, refused by the other. Without Redis each
    // process keeps its own memory (the suite's app above).
    if (sharedRedis !== undefined) {
      const redis = await sharedRedis.redis();
      const instance = () =>
        accountsTestApp({
          db,
          redis,
          modules: [
            tradingCore({
              writer: false,
              venue: new LocalVenue({ ladder: false }),
              botApi: { now: () => clock.now },
            }),
          ],
        });
      const [a, b] = [await instance(), await instance()];
      try {
        clock.now += 1;
        expect((await signedGet(made, assets, hmac, undefined, undefined, a.app)).body.code).toBe("00000");
        expect((await signedGet(made, assets, hmac, undefined, undefined, b.app)).body.code).toBe("40005");
      } finally {
        await a.app.close();
        await b.app.close();
      }
    }
    // A wrong passphrase with a wrong signature says only "signature": a caller without the
    // secret learns nothing about its passphrase guesses. With the right signature, 40012.
    clock.now += 1;
    const guess = { ...made, passphrase: "Guess12345" };
    expect((await signedGet(guess, assets, (t) => signHmac("0".repeat(64), t))).body.code).toBe("40009");
    expect((await signedGet(guess, assets, hmac)).body.code).toBe("40012");
    // A refused request is not remembered: sent right, the same timestamp is served.
    expect((await signedGet(made, assets, hmac)).body.code).toBe("00000");
  });

  it("never writes a secret or passphrase to the log", () => {
    const text = logs.join("");
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toMatch(/Passphrase123/);
    expect(text).not.toMatch(/"secret"\s*:\s*"[0-9a-f]{64}"/);
    expect(text).not.toMatch(/access-sign/i);
  });
});

import crypto from "node:crypto";
import { AccountCode, Code, DEV_ISSUER_PUBLIC_JWK } from "@meridian/contracts";
import { afterEach, describe, expect, it } from "vitest";
import {
  Agent,
  HOST,
  ORIGIN,
  securityApp,
  settingsWith,
  type TestServer,
  testServerKeys,
} from "../../test/security-agent.ts";
import { latestReports } from "../security-report/index.ts";
import { issuerSign, serverKeysFrom } from "./keys.ts";

let server: TestServer;
afterEach(() => server.app.close());

const KYC = { step: 1, familyName: "Doe", givenName: "Jane", country: "PT", documentNumber: "AB123456" };

async function loggedIn(s: TestServer): Promise<Agent> {
  const a = new Agent(s);
  await a.registerEmail(`u${crypto.randomInt(1e9)}@example.com`, "password-123");
  return a;
}

describe("signed core calls", () => {
  it("accepts a signed call and answers request-time on every answer", async () => {
    server = await securityApp();
    const a = await loggedIn(server);
    const res = await a.call("POST", "/v1/user/kyc/submit", KYC);
    expect(res.code).toBe(Code.OK);
    expect(Number(res.headers["request-time"])).toBe(server.clock.now);
    const missing = await a.call("GET", "/v1/no-such-route");
    expect(missing.headers["request-time"]).toBeDefined();
  });

  it("00020 when the signature is missing, with gw-sign-error", async () => {
    server = await securityApp();
    const a = await loggedIn(server);
    const res = await a.call("POST", "/v1/user/kyc/submit", KYC, { raw: true });
    expect(res.code).toBe(Code.SIGN_MISSING);
    expect(res.headers["gw-sign-error"]).toBe("missing");
  });

  it("00021 on a downgrade below the path's mode", async () => {
    server = await securityApp({ signSettings: settingsWith({ exactUrls: { "/v1/user/kyc/submit": 2 } }) });
    const a = await loggedIn(server);
    // Sign as if the path were mode 1 (no body digest): the server wants mode 2.
    a.security.config?.exactUrls && Object.assign(a.security.config.exactUrls, { "/v1/user/kyc/submit": 1 });
    const res = await a.call("POST", "/v1/user/kyc/submit", KYC);
    expect(res.code).toBe(Code.SIGN_MODE_MISMATCH);
    expect(res.headers["gw-sign-error"]).toBe("mode");
  });

  it("00022 when tm is outside the window", async () => {
    server = await securityApp();
    const a = await loggedIn(server);
    const res = await a.call("POST", "/v1/user/kyc/submit", KYC, { tm: server.clock.now - 61_000 });
    expect(res.code).toBe(Code.SIGN_EXPIRED);
  });

  it("00023 for a replayed trace id, a changed body, or a foreign key", async () => {
    server = await securityApp();
    const a = await loggedIn(server);
    const first = await a.security.beforeSend({
      path: "/v1/user/kyc/submit",
      url: "/v1/user/kyc/submit",
      body: JSON.stringify(KYC),
      time: server.clock.now,
    });
    const once = await a.call("POST", "/v1/user/kyc/submit", KYC, { raw: true, headers: first ?? {} });
    expect(once.code).toBe(Code.OK);
    const replay = await a.call("POST", "/v1/user/kyc/submit", KYC, { raw: true, headers: first ?? {} });
    expect(replay.code).toBe(Code.SIGN_INVALID);
    expect(replay.headers["gw-sign-error"]).toBe("invalid");

    const fresh = await a.security.beforeSend({
      path: "/v1/user/kyc/submit",
      url: "/v1/user/kyc/submit",
      body: JSON.stringify(KYC),
      time: server.clock.now,
    });
    const tampered = await a.call(
      "POST",
      "/v1/user/kyc/submit",
      { ...KYC, country: "FR" },
      { raw: true, headers: fresh ?? {} },
    );
    expect(tampered.code).toBe(Code.SIGN_INVALID);

    const b = await loggedIn(server);
    const foreign = await b.security.beforeSend({
      path: "/v1/user/kyc/submit",
      url: "/v1/user/kyc/submit",
      body: JSON.stringify(KYC),
      time: server.clock.now,
    });
    expect(
      (await a.call("POST", "/v1/user/kyc/submit", KYC, { raw: true, headers: foreign ?? {} })).code,
    ).toBe(Code.SIGN_INVALID);
  });

  it("a mode-2 signature covers the body's exact bytes as the JSON parser read them", async () => {
    server = await securityApp();
    const a = await loggedIn(server);
    // Spacing and a non-ASCII letter: only the bytes as sent hash to the signed MD5.
    const text = `{ "step": 1, "familyName": "Dœ",  "givenName": "Jane", "country": "PT", "documentNumber": "AB123456" }`;
    const send = async (body: string, contentType: string) => {
      const sign = await a.security.beforeSend({
        path: "/v1/user/kyc/submit",
        url: "/v1/user/kyc/submit",
        body: text,
        time: server.clock.now,
      });
      const res = await server.app.inject({
        method: "POST",
        url: "/v1/user/kyc/submit",
        headers: {
          host: HOST,
          origin: ORIGIN,
          tm: String(server.clock.now),
          "content-type": contentType,
          cookie: a.cookieHeader(),
          ...sign,
        },
        payload: body,
      });
      return res.json() as { code: string };
    };
    expect((await send(text, "application/json; charset=utf-8")).code).toBe(Code.OK);
    // The same JSON value in other bytes is not what was signed.
    expect((await send(JSON.stringify(JSON.parse(text)), "application/json")).code).toBe(Code.SIGN_INVALID);
  });

  it("device check recognises the key bound at the last login", async () => {
    server = await securityApp();
    const a = new Agent(server);
    await a.registerEmail("device@example.com", "password-123");
    await a.call("POST", "/v1/user/logout");
    const again = await a.login("device@example.com", "password-123");
    expect(again.data).toMatchObject({ knownDevice: true });
    const stranger = await new Agent(server).login("device@example.com", "password-123");
    expect(stranger.data).toMatchObject({ knownDevice: false });
  });
});

describe("login body encryption", () => {
  it("refuses plain login bodies and tampered ciphertext with one uniform answer", async () => {
    server = await securityApp();
    await new Agent(server).registerEmail("enc@example.com", "password-123");
    const a = new Agent(server);
    const plain = await a.call(
      "POST",
      "/v1/user/login",
      { loginName: "enc@example.com", pwd: "password-123" },
      { raw: true },
    );
    const body = (await a.security.transformBody({
      path: "/v1/user/login",
      body: { loginName: "enc@example.com", pwd: "password-123" },
    })) as Record<string, string>;
    const ct = Buffer.from(body.bodyCiphertext ?? "", "base64");
    ct[3] = (ct[3] ?? 0) ^ 1;
    const tampered = await a.call(
      "POST",
      "/v1/user/login",
      { ...body, bodyCiphertext: ct.toString("base64") },
      { raw: true },
    );
    const otherPath = await a.call("POST", "/v1/user/register/email", body, { raw: true });
    const answers = [plain, tampered, otherPath].map((r) => ({ code: r.code, msg: r.msg }));
    expect(new Set(answers.map((x) => JSON.stringify(x))).size).toBe(1);
    expect(answers[0]?.code).toBe(AccountCode.DECRYPT_FAILED);
    const good = await a.call("POST", "/v1/user/login", body, { raw: true });
    expect(good.code).toBe(Code.OK);
    const replayed = await a.call("POST", "/v1/user/login", body, { raw: true });
    expect(replayed.code).toBe(AccountCode.DECRYPT_FAILED);
  });

  it("the client refuses a server key the issuer did not sign (loginEncryptFailed)", async () => {
    const rogueIssuer = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }).privateKey;
    const k = testServerKeys();
    const der = Buffer.from(k.publicKeyB64, "base64");
    server = await securityApp({ serverKeys: serverKeysFrom(k.privateKey, issuerSign(rogueIssuer, der)) });
    const a = new Agent(server, DEV_ISSUER_PUBLIC_JWK);
    await expect(a.login("x@example.com", "password-123")).rejects.toThrow();
    expect(server.reports.map((r) => r.event)).toContain("loginEncryptFailed");
    expect(a.security.state).toBe("failed");
  });

  it("legacy scheme (RSA PKCS#1 v1.5 + AES-256-CBC) works when configured and fails uniformly", async () => {
    server = await securityApp({ signSettings: settingsWith({ encryptAlgorithm: "v1-rsa15-a256cbc" }) });
    await new Agent(server).registerEmail("legacy@example.com", "password-123");
    const a = new Agent(server);
    const make = async () =>
      (await a.security.transformBody({
        path: "/v1/user/login",
        body: { loginName: "legacy@example.com", pwd: "password-123" },
      })) as Record<string, string>;
    const good = await make();
    expect(good.cipherAlg).toBe("v1-rsa15-a256cbc");
    expect((await a.call("POST", "/v1/user/login", good, { raw: true })).code).toBe(Code.OK);

    const flip = (b64: string, i: number) => {
      const buf = Buffer.from(b64, "base64");
      buf[i] = (buf[i] ?? 0) ^ 0x55;
      return buf.toString("base64");
    };
    const base = await make();
    const ct = Buffer.from(base.bodyCiphertext ?? "", "base64");
    const variants = [
      { ...base, cipherKey: flip(base.cipherKey ?? "", 0) }, // RSA block broken
      { ...base, bodyCiphertext: flip(base.bodyCiphertext ?? "", ct.length - 1) }, // CBC padding broken
      { ...base, cipherIv: flip(base.cipherIv ?? "", 0) }, // JSON broken
      { ...base, cipherAlg: "v2-rsa-oaep256-a256gcm" }, // not the configured version
    ];
    const answers = [];
    for (const v of variants) {
      const r = await a.call("POST", "/v1/user/login", v, { raw: true });
      answers.push(JSON.stringify({ status: r.status, code: r.code, msg: r.msg, data: r.data }));
    }
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toContain(AccountCode.DECRYPT_FAILED);
  });
});

describe("cspSecurity reports", () => {
  it("stores a report and refuses oversize ones", async () => {
    server = await securityApp();
    const a = new Agent(server);
    const report = {
      bizType: "gateway",
      data: { event: "initFailed", reason: "boom" },
      timestamp: Date.now(),
      page: "/login",
    };
    expect((await a.call("POST", "/v1/buried/log/cspSecurity", report, { raw: true })).code).toBe(Code.OK);
    const rows = await latestReports(server.app.platform.db);
    expect(rows[0]).toMatchObject({
      biz_type: "gateway",
      event: "initFailed",
      reason: "boom",
      page: "/login",
    });
    const big = await a.call(
      "POST",
      "/v1/buried/log/cspSecurity",
      { ...report, data: { event: "x", reason: "y".repeat(9_000) } },
      { raw: true },
    );
    expect(big.status).toBe(413);
  });
});

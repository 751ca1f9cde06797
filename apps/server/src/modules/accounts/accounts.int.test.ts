import { AccountCode, Code } from "@meridian/contracts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, HOST, securityApp, type TestServer } from "../../test/security-agent.ts";
import { totp } from "./totp.ts";

let server: TestServer;
beforeEach(async () => {
  server = await securityApp();
});
afterEach(() => server.app.close());

describe("register, login, logout", () => {
  it("registers by email with the mailed code, reads user info, logs out, and the session is gone", async () => {
    const a = new Agent(server);
    const userId = await a.registerEmail("Alice@Example.com", "correct horse battery");
    expect(userId).toMatch(/^\d{10}$/);
    const info = await a.call<Record<string, Record<string, unknown>>>("POST", "/v1/user/overview/userinfo");
    expect(info.code).toBe(Code.OK);
    expect(info.data.userInfo).toMatchObject({
      userId,
      email: "alice@example.com",
      vipLevel: 0,
      role: "user",
    });
    expect(info.data.settings).toMatchObject({
      bindEmail: true,
      bindPhone: false,
      googleEnable: false,
      kycLevel: 0,
    });
    expect(info.data).toMatchObject({ loginName: "alice@example.com", userName: "alice@example.com" });
    expect(info.headers["request-time"]).toMatch(/^\d{13}$/);

    const out = await a.call("POST", "/v1/user/logout");
    expect(out.code).toBe(Code.OK);
    const setCookie = String(out.headers["set-cookie"]);
    expect(setCookie).toMatch(/mer_token=;.*Max-Age=0/);
    expect(setCookie).toMatch(/mer_refresh=;.*Max-Age=0/);
    // Only the device cookie outlives a logout: the browser stays a known device.
    expect([...a.cookies.keys()]).toEqual(["mer_device"]);

    const b = new Agent(server);
    expect((await b.login("alice@example.com", "correct horse battery")).code).toBe(Code.OK);
    const cookie = b.cookieHeader();
    expect((await b.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.OK);
    await b.call("POST", "/btapi/common/logout");
    const after = await server.app.inject({
      method: "POST",
      url: "/v1/user/overview/userinfo",
      headers: { host: HOST, cookie },
    });
    expect(after.json()).toMatchObject({ code: Code.SESSION_INVALID });
  });

  it("sets HttpOnly SameSite=Lax cookies, Secure only under https", async () => {
    const a = new Agent(server);
    await a.call("POST", "/v1/user/public/sendCode", { bizType: "register", email: "c@example.com" });
    const res = await a.call("POST", "/v1/user/register/email", {
      email: "c@example.com",
      emailCode: await a.latestCode("c@example.com"),
      pwd: "password-123",
    });
    const cookies = res.headers["set-cookie"] as string[];
    expect(cookies[0]).toMatch(/^mer_token=[\w-]{43}; Path=\/; Max-Age=\d+; HttpOnly; SameSite=Lax$/);
    expect(cookies[1]).toMatch(/^mer_refresh=[\w-]{43}; Path=\/v1\/user; .*HttpOnly; SameSite=Lax$/);
  });

  it("registers by phone and by phone plus email", async () => {
    const a = new Agent(server);
    await a.call("POST", "/v1/user/public/sendCode", {
      bizType: "register",
      areaCode: "44",
      mobile: "7700900123",
    });
    const mobileCode = await a.latestCode("+447700900123");
    const res = await a.call("POST", "/v1/user/register/mobile", {
      areaCode: "44",
      mobile: "7700900123",
      mobileCode,
      pwd: "password-123",
    });
    expect(res.code).toBe(Code.OK);
    const info = await a.call<{ settings: { bindPhone: boolean }; userInfo: { phone: string } }>(
      "POST",
      "/v1/user/overview/userinfo",
    );
    expect(info.data.settings.bindPhone).toBe(true);
    expect(info.data.userInfo.phone).toBe("+447700900123");

    const b = new Agent(server);
    await b.call("POST", "/v1/user/public/sendCode", {
      bizType: "register",
      areaCode: "1",
      mobile: "5550100",
    });
    await b.call("POST", "/v1/user/public/sendCode", { bizType: "register", email: "both@example.com" });
    const both = await b.call("POST", "/v1/user/register/mobileAndEmail", {
      areaCode: "1",
      mobile: "5550100",
      mobileCode: await b.latestCode("+15550100"),
      email: "both@example.com",
      emailCode: await b.latestCode("both@example.com"),
      pwd: "password-123",
    });
    expect(both.code).toBe(Code.OK);
    expect(
      (
        await new Agent(server).call("POST", "/v1/user/login", {
          loginName: "5550100",
          areaCode: "1",
          pwd: "password-123",
        })
      ).code,
    ).toBe(Code.OK);
  });

  it("refuses a wrong code, and never tells whether an address is registered", async () => {
    const a = new Agent(server);
    await a.registerEmail("taken@example.com", "password-123");
    const again = await new Agent(server).call("POST", "/v1/user/public/sendCode", {
      bizType: "register",
      email: "taken@example.com",
    });
    expect(again.code).toBe(Code.OK);
    const bad = await new Agent(server).call("POST", "/v1/user/register/email", {
      email: "taken@example.com",
      emailCode: "000000",
      pwd: "password-123",
    });
    expect(bad.code).toBe(AccountCode.VERIFY_CODE_INVALID);
  });

  it("answers a wrong password with one message for unknown and known accounts", async () => {
    await new Agent(server).registerEmail("bob@example.com", "password-123");
    const wrong = await new Agent(server).login("bob@example.com", "password-999");
    const unknown = await new Agent(server).login("nobody@example.com", "password-999");
    expect(wrong).toMatchObject({ code: AccountCode.INVALID_CREDENTIALS });
    expect(unknown.msg).toBe(wrong.msg);
  });

  it("blocks after 5 failures for 1 minute, then the right password works", async () => {
    await new Agent(server).registerEmail("victim@example.com", "password-123");
    const attacker = new Agent(server);
    const codes: string[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await attacker.login("victim@example.com", `guess-${i}-xx`)).code);
    // Every checked guess answers "wrong"; the block refuses the next one unchecked.
    expect(codes).toEqual(Array(5).fill(AccountCode.INVALID_CREDENTIALS));
    const during = await new Agent(server).login("victim@example.com", "password-123");
    expect(during.status).toBe(429);
    expect(during.code).toBe(AccountCode.LOGIN_THROTTLED);
    expect(during.data).toMatchObject({ retryAfterMs: expect.any(Number) });
    server.clock.now += 61_000;
    expect((await new Agent(server).login("victim@example.com", "password-123")).code).toBe(Code.OK);
  });
});

describe("two-factor (TOTP)", () => {
  it("binds an authenticator, then login needs googleCode", async () => {
    const a = new Agent(server);
    await a.registerEmail("totp@example.com", "password-123");
    const setup = await a.call<{ secret: string; otpauthUri: string }>("POST", "/v1/user/google/setup");
    expect(setup.data.otpauthUri).toMatch(
      /^otpauth:\/\/totp\/Meridian%3Atotp%40example\.com\?secret=[A-Z2-7]{32}&issuer=Meridian/,
    );
    const bind = await a.call("POST", "/v1/user/google/bind", {
      googleCode: totp(setup.data.secret, server.clock.now),
    });
    expect(bind.code).toBe(Code.OK);
    const info = await a.call<{ settings: Record<string, unknown> }>("POST", "/v1/user/overview/userinfo");
    expect(info.data.settings).toMatchObject({ bindGoogle: true, googleEnable: true });

    server.clock.now += 60_000;
    const b = new Agent(server);
    const step1 = await b.login("totp@example.com", "password-123");
    expect(step1.data).toMatchObject({ verifyRequired: true, methods: ["google", "recovery"] });
    expect(b.cookies.size).toBe(0);
    const verifyToken = String(step1.data.verifyToken);
    const wrong = await b.call("POST", "/v1/user/login/verify-login", { verifyToken, googleCode: "000000" });
    expect(wrong.code).toBe(AccountCode.GOOGLE_CODE_INVALID);
    const right = await b.call("POST", "/v1/user/login/verify-login", {
      verifyToken,
      googleCode: totp(setup.data.secret, server.clock.now),
    });
    expect(right.code).toBe(Code.OK);
    expect(b.cookies.has("mer_token")).toBe(true);
    const reuse = await b.call("POST", "/v1/user/login/verify-login", {
      verifyToken,
      googleCode: totp(setup.data.secret, server.clock.now),
    });
    expect(reuse.code).toBe(AccountCode.VERIFY_CODE_INVALID);
  });
});

describe("forced logout codes and CSRF", () => {
  it("answers 20906 after a kick and 20205 for a frozen account", async () => {
    const a = new Agent(server);
    const userId = await a.registerEmail("kick@example.com", "password-123");
    // Each session answers once first, so the kick and the freeze must reach a remembered session.
    expect((await a.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.OK);
    await server.module.service.kickUser(userId);
    expect((await a.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.SESSION_KICKED);

    const b = new Agent(server);
    await b.login("kick@example.com", "password-123");
    expect((await b.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.OK);
    await server.module.service.repo.setFrozen(userId, true, Date.now());
    expect((await b.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.SESSION_FROZEN);
    expect((await new Agent(server).login("kick@example.com", "password-123")).code).toBe(
      Code.SESSION_FROZEN,
    );
  });

  it("answers 00004 without a session", async () => {
    expect((await new Agent(server).call("POST", "/v1/user/overview/userinfo")).code).toBe(
      Code.SESSION_INVALID,
    );
  });

  it("refuses cookie-authenticated writes from another origin", async () => {
    const a = new Agent(server);
    await a.registerEmail("csrf@example.com", "password-123");
    a.origin = "https://evil.example";
    const res = await a.call("POST", "/v1/user/google/setup");
    expect(res.status).toBe(403);
    expect(res.code).toBe(Code.FORBIDDEN);
    a.origin = undefined;
    expect((await a.call("POST", "/v1/user/logout")).code).toBe(Code.FORBIDDEN);
    expect(
      (await a.call("POST", "/v1/user/logout", undefined, { headers: { "sec-fetch-site": "same-origin" } }))
        .code,
    ).toBe(Code.OK);
  });

  it("rotates the refresh token and treats reuse as theft", async () => {
    const a = new Agent(server);
    await a.registerEmail("refresh@example.com", "password-123");
    const old = a.cookies.get("mer_refresh") ?? "";
    expect((await a.call("POST", "/v1/user/refresh")).code).toBe(Code.OK);
    expect(a.cookies.get("mer_refresh")).not.toBe(old);
    const thief = new Agent(server);
    thief.cookies.set("mer_refresh", old);
    expect((await thief.call("POST", "/v1/user/refresh")).code).toBe(Code.SESSION_INVALID);
    expect((await a.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.SESSION_INVALID);
  });
});

describe("KYC", () => {
  it("level 1 then level 2, and hasRealValidate follows", async () => {
    const a = new Agent(server);
    await a.registerEmail("kyc@example.com", "password-123");
    const early = await a.call("POST", "/v1/user/kyc/submit", {
      step: 2,
      addressLine: "1 Main Street",
      city: "Lisbon",
    });
    expect(early.code).toBe(AccountCode.KYC_STEP_INVALID);
    const l1 = await a.call("POST", "/v1/user/kyc/submit", {
      step: 1,
      familyName: "Doe",
      givenName: "Jane",
      country: "PT",
      documentNumber: "AB123456",
    });
    expect(l1.data).toEqual({ kycLevel: 1 });
    const l2 = await a.call("POST", "/v1/user/kyc/submit", {
      step: 2,
      addressLine: "1 Main Street",
      city: "Lisbon",
    });
    expect(l2.data).toEqual({ kycLevel: 2 });
    const info = await a.call<{ userInfo: Record<string, unknown>; settings: Record<string, unknown> }>(
      "POST",
      "/v1/user/overview/userinfo",
    );
    expect(info.data.settings.kycLevel).toBe(2);
    expect(info.data.userInfo).toMatchObject({ realName: "Jane Doe", starRealName: "J*** D**" });
  });
});

import { AccountCode, Code, NOT_OFFERED_LOGIN_PATHS } from "@meridian/contracts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent, securityApp, type TestServer } from "../../test/security-agent.ts";
import { totp } from "./totp.ts";

let server: TestServer;
beforeEach(async () => {
  server = await securityApp();
});
afterEach(() => server.app.close());

/** A user with the authenticator bound; the clock is past the step the bind spent. */
async function withAuthenticator(email: string): Promise<{ secret: string; codes: string[] }> {
  const a = new Agent(server);
  await a.registerEmail(email, "password-123");
  const setup = await a.call<{ secret: string }>("POST", "/v1/user/google/setup");
  const bind = await a.call<{ recoveryCodes: string[] }>("POST", "/v1/user/google/bind", {
    googleCode: totp(setup.data.secret, server.clock.now),
  });
  server.clock.now += 30_000;
  return { secret: setup.data.secret, codes: bind.data.recoveryCodes };
}

async function challenge(email: string): Promise<{ agent: Agent; verifyToken: string }> {
  const agent = new Agent(server);
  const step1 = await agent.login(email, "password-123");
  expect(step1.data.verifyRequired).toBe(true);
  return { agent, verifyToken: String(step1.data.verifyToken) };
}

const V2 = "/v1/user/login/verify-login-v2";

describe("verify-login-v2", () => {
  it("completes the challenge with the authenticator; a replayed code and a wrong one are refused", async () => {
    const { secret } = await withAuthenticator("v2@example.com");
    const { agent, verifyToken } = await challenge("v2@example.com");
    const bad = await agent.call("POST", V2, { verifyToken, googleCode: "000000" });
    expect(bad.code).toBe(AccountCode.GOOGLE_CODE_INVALID);
    const code = totp(secret, server.clock.now);
    const ok = await agent.call<{
      userInfo: { userId: string };
      accessTokenResVO: { userInfo: { userId: string } };
    }>("POST", V2, { verifyToken, googleCode: code });
    expect(ok.code).toBe(Code.OK);
    expect(ok.data.accessTokenResVO.userInfo.userId).toBe(ok.data.userInfo.userId);
    expect(agent.cookies.has("mer_token")).toBe(true);

    const other = await challenge("v2@example.com");
    const replay = await other.agent.call("POST", V2, { verifyToken: other.verifyToken, googleCode: code });
    expect(replay.code).toBe(AccountCode.GOOGLE_CODE_INVALID);
    expect(other.agent.cookies.has("mer_token")).toBe(false);
  });

  it("takes a recovery code (once) and an e-mail code where the challenge sent one", async () => {
    const { codes } = await withAuthenticator("v2rc@example.com");
    const first = await challenge("v2rc@example.com");
    expect(
      (await first.agent.call("POST", V2, { verifyToken: first.verifyToken, recoveryCode: codes[0] })).code,
    ).toBe(Code.OK);
    const second = await challenge("v2rc@example.com");
    const again = await second.agent.call("POST", V2, {
      verifyToken: second.verifyToken,
      recoveryCode: codes[0],
    });
    expect(again.code).toBe(AccountCode.RECOVERY_CODE_INVALID);

    // An account whose login asks for an e-mail code (the flag no page turns on yet).
    const b = new Agent(server);
    const userId = await b.registerEmail("v2mail@example.com", "password-123");
    await server.module.service.repo.patchUser(userId, { email_enable: 1 }, server.clock.now);
    const before = server.mail.to("v2mail@example.com").length;
    const { agent, verifyToken } = await challenge("v2mail@example.com");
    const emailCode = await server.mail.code("v2mail@example.com", before);
    const wrong = await agent.call("POST", V2, {
      verifyToken,
      emailCode: emailCode === "000000" ? "111111" : "000000",
    });
    expect(wrong.code).toBe(AccountCode.VERIFY_CODE_INVALID);
    expect((await agent.call("POST", V2, { verifyToken, emailCode })).code).toBe(Code.OK);
    expect((await agent.call("POST", V2, { verifyToken, emailCode })).code).toBe(
      AccountCode.VERIFY_CODE_INVALID,
    );
  });

  it("answers a passkey assertion for an account without passkeys 11010, counted and in the history", async () => {
    await withAuthenticator("v2fido@example.com");
    const answers: string[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      const { agent, verifyToken } = await challenge("v2fido@example.com");
      const res = await agent.call("POST", V2, { verifyToken, fidoVerifyCode: '{"id":"x"}' });
      answers.push(res.code);
      statuses.push(res.status);
    }
    expect(answers.slice(0, 5)).toEqual(Array(5).fill(AccountCode.LOGIN_STEP_NOT_OFFERED));
    expect(statuses.slice(0, 5)).toEqual(Array(5).fill(404));
    // The sixth try is over the second-factor budget, like a sixth wrong code.
    expect(answers[5]).toBe(AccountCode.LOGIN_THROTTLED);
    const rows = await server.module.service.repo.db.all<{ reason: string | null }>(
      "SELECT reason FROM login_history WHERE success = 0",
    );
    expect(rows.filter((r) => r.reason === "second-factor").length).toBeGreaterThanOrEqual(5);
  });

  it("counts wrong codes against the user's second-factor budget: five checked, then 429", async () => {
    const { secret } = await withAuthenticator("v2limit@example.com");
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const { agent, verifyToken } = await challenge("v2limit@example.com");
      codes.push((await agent.call("POST", V2, { verifyToken, googleCode: `00000${i}` })).code);
    }
    expect(codes.slice(0, 5)).toEqual(Array(5).fill(AccountCode.GOOGLE_CODE_INVALID));
    expect(codes[5]).toBe(AccountCode.LOGIN_THROTTLED);
    const { agent, verifyToken } = await challenge("v2limit@example.com");
    const right = await agent.call("POST", V2, { verifyToken, googleCode: totp(secret, server.clock.now) });
    expect(right.code).toBe(AccountCode.LOGIN_THROTTLED);
  });
});

describe("login paths Meridian does not offer", () => {
  it("answer 11010 (HTTP 404), encrypted or not, never a decryption error", async () => {
    const a = new Agent(server);
    for (const path of NOT_OFFERED_LOGIN_PATHS) {
      const encrypted = await a.call("POST", path, { loginName: "x@example.com", pwd: "password-123" });
      expect([path, encrypted.status, encrypted.code]).toEqual([
        path,
        404,
        AccountCode.LOGIN_STEP_NOT_OFFERED,
      ]);
      const plain = await a.call("POST", path, { loginName: "x@example.com" }, { raw: true });
      expect([path, plain.status, plain.code]).toEqual([path, 404, AccountCode.LOGIN_STEP_NOT_OFFERED]);
      const empty = await a.call("POST", path, {}, { raw: true });
      expect(empty.code).toBe(AccountCode.LOGIN_STEP_NOT_OFFERED);
    }
    // The answered paths still refuse plaintext.
    const plainV2 = await a.call(
      "POST",
      V2,
      { verifyToken: "x".repeat(20), googleCode: "123456" },
      { raw: true },
    );
    expect(plainV2.code).toBe(AccountCode.DECRYPT_FAILED);
  });
});

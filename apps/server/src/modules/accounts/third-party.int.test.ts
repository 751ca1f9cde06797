import crypto from "node:crypto";
import {
  AccountCode,
  Code,
  SESSION_COOKIE,
  type ThirdIdentityDto,
  ThirdPartyCode,
} from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { startOidcProvider, type TestOidcProvider, walkAuthorization } from "../../test/oidc-provider.ts";
import { Agent, ORIGIN, securityApp, type TestServer } from "../../test/security-agent.ts";
import { SoftAuthenticator } from "../../test/soft-authenticator.ts";
import { totp } from "./totp.ts";

// Each sign-in is several encrypted requests and a real provider's redirects.
vi.setConfig({ testTimeout: 60_000 });

const PWD = "password-123";
const BOT_TOKEN = "123456789:test-bot-token-AAAAAAAAAAAAAAAAAAAA";
const CALLBACK = `${ORIGIN}/third-login/idp`;

type Answer = Record<string, unknown>;
type PasskeyOptions = { challenge: string };
type UserInfo = { userInfo: { userId: string; email: string } };

/** Telegram's Login Widget signature, written from its documentation (not the server's code). */
function signTelegram(data: Record<string, string>, botToken = BOT_TOKEN): Record<string, string> {
  const check = Object.keys(data)
    .sort()
    .map((k) => `${k}=${data[k]}`)
    .join("\n");
  const secret = crypto.createHash("sha256").update(botToken).digest();
  return { ...data, hash: crypto.createHmac("sha256", secret).update(check).digest("hex") };
}

describe.each(reopenableDbTargets("thirdparty"))("third-party sign-in ($name)", (target) => {
  let server: TestServer;
  let idp: TestOidcProvider;
  let cleanup: () => Promise<void>;
  let ipSeq = 0;

  beforeAll(async () => {
    idp = await startOidcProvider();
    idp.setRedirectUris([CALLBACK]);
    const opened = await target.open();
    server = await securityApp({
      db: opened.db(),
      env: {
        OIDC_PROVIDERS: idp.envValue("idp", "Test ID"),
        TELEGRAM_BOT_TOKEN: BOT_TOKEN,
        TELEGRAM_BOT_NAME: "meridian_test_bot",
      },
    });
    cleanup = async () => {
      await server.app.close();
      await opened.cleanup();
      await idp.stop();
    };
  });
  afterAll(() => cleanup());

  /** A browser at an address of its own (fresh per-address budgets). */
  function browser(): Agent {
    ipSeq += 1;
    const a = new Agent(server);
    a.remoteAddress = `198.51.${ipSeq}.9`;
    return a;
  }

  /** Starts a sign-in at the provider as `subject`: the callback's query string. */
  async function authorize(agent: Agent, subject: string): Promise<string> {
    idp.user.subject = subject;
    const start = await agent.call<{ authorizationUrl: string }>("POST", "/v1/user/public/third/oidc/start", {
      provider: "idp",
    });
    expect(start.code).toBe(Code.OK);
    const url = new URL(start.data.authorizationUrl);
    expect(url.origin).toBe(idp.issuer);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("redirect_uri")).toBe(CALLBACK);
    for (const p of ["state", "nonce", "code_challenge"]) expect(url.searchParams.get(p)).toBeTruthy();
    return walkAuthorization(start.data.authorizationUrl, CALLBACK);
  }

  const oidcLogin = (agent: Agent, callback: string) =>
    agent.call<Answer>("POST", "/v1/user/public/third/oidc/login", { provider: "idp", callback });

  /** A finished sign-in's answer: the device key bound as after any login. */
  async function loggedIn(agent: Agent, res: { code: string; msg: string; data: Answer }): Promise<string> {
    expect(`${res.code} ${res.msg}`).toBe(`${Code.OK} success`);
    expect(res.data.verifyRequired).toBe(false);
    await agent.security.onLoginSuccess(res.data);
    const info = await agent.call<UserInfo>("POST", "/v1/user/overview/userinfo");
    expect(info.code).toBe(Code.OK);
    return info.data.userInfo.userId;
  }

  async function identities(agent: Agent): Promise<ThirdIdentityDto[]> {
    const res = await agent.call<{ identities: ThirdIdentityDto[] }>("GET", "/v1/user/security/thirdParty");
    expect(res.code).toBe(Code.OK);
    return res.data.identities;
  }

  async function history(agent: Agent): Promise<(string | null)[]> {
    const res = await agent.call<{ items: { reason: string | null }[] }>(
      "GET",
      "/v1/user/security/loginHistory?pageSize=100",
    );
    return res.data.items.map((i) => i.reason);
  }

  it("a first OpenID sign-in creates an account; the next one logs it in", async () => {
    const agent = browser();
    const first = await oidcLogin(agent, await authorize(agent, `new-${target.name}`));
    expect(first.code).toBe(Code.OK);
    expect(first.data).toMatchObject({
      bindRequired: true,
      provider: "idp",
      display: `new-${target.name}@idp.test`,
    });
    const token = String(first.data.token);
    const check = await agent.call<Answer>("POST", "/v1/user/public/third/check", { token });
    expect(check.data).toMatchObject({ provider: "idp" });

    const created = await agent.call<Answer>("POST", "/v1/user/public/third/register", { token });
    const userId = await loggedIn(agent, created);
    const info = await agent.call<UserInfo>("POST", "/v1/user/overview/userinfo");
    // The provider verified the address: the new account has it.
    expect(info.data.userInfo.email).toBe(`new-${target.name}@idp.test`);
    // A ticket works once.
    expect((await agent.call("POST", "/v1/user/public/third/register", { token })).code).toBe(
      ThirdPartyCode.TICKET_INVALID,
    );

    const other = browser();
    const again = await oidcLogin(other, await authorize(other, `new-${target.name}`));
    expect(await loggedIn(other, again)).toBe(userId);
    const [bound] = await identities(other);
    expect(bound).toMatchObject({ provider: "idp", name: "Test ID" });

    // No password and no other way in: the only identity stays.
    const unbind = await other.call("POST", "/v1/user/third/unbind", { provider: "idp" });
    expect(unbind.status).toBe(409);
    expect(unbind.code).toBe(ThirdPartyCode.LAST_WAY_IN);
    expect(await identities(other)).toHaveLength(1);
    // Nor does its (absent) password log in.
    const pwdLogin = await browser().login(`new-${target.name}@idp.test`, "any-password");
    expect(pwdLogin.code).not.toBe(Code.OK);
  });

  it("links a new identity to an account after its password, never by e-mail alone", async () => {
    const email = `bob-${target.name}@idp.test`;
    const owner = browser();
    const ownerId = await owner.registerEmail(email, PWD);

    // The provider's verified e-mail is the account's: still a ticket, nothing bound.
    const agent = browser();
    const first = await oidcLogin(agent, await authorize(agent, `bob-${target.name}`));
    expect(first.data.bindRequired).toBe(true);
    expect(await identities(owner)).toEqual([]);
    const token = String(first.data.token);

    const wrong = await agent.call("POST", "/v1/user/public/third/bind", {
      token,
      loginName: email,
      pwd: "nope-nope",
    });
    expect(wrong.code).toBe(AccountCode.INVALID_CREDENTIALS);
    expect(await identities(owner)).toEqual([]);
    // Another browser cannot use this browser's ticket.
    const thief = browser();
    const stolen = await thief.call("POST", "/v1/user/public/third/bind", {
      token,
      loginName: email,
      pwd: PWD,
    });
    expect(stolen.code).toBe(ThirdPartyCode.TICKET_INVALID);

    const linked = await agent.call<Answer>("POST", "/v1/user/public/third/bind", {
      token,
      loginName: email,
      pwd: PWD,
    });
    expect(await loggedIn(agent, linked)).toBe(ownerId);
    expect((await identities(owner)).map((i) => i.provider)).toEqual(["idp"]);

    // With a password the identity can go; then the provider's sign-in is a new identity again.
    const unbind = await owner.call("POST", "/v1/user/third/unbind", { provider: "idp" });
    expect(unbind.code).toBe(Code.OK);
    expect(await identities(owner)).toEqual([]);
    const later = browser();
    expect((await oidcLogin(later, await authorize(later, `bob-${target.name}`))).data.bindRequired).toBe(
      true,
    );
  });

  it("asks for the authenticator after a third-party sign-in when the account has one", async () => {
    const email = `carol-${target.name}@example.com`;
    const owner = browser();
    await owner.registerEmail(email, PWD);
    const setup = await owner.call<{ secret: string }>("POST", "/v1/user/google/setup");
    const bind = await owner.call("POST", "/v1/user/google/bind", {
      googleCode: totp(setup.data.secret, server.clock.now),
    });
    expect(bind.code).toBe(Code.OK);
    server.clock.now += 30_000;

    // Linking: the password, then the authenticator; bound only once both passed.
    const agent = browser();
    const ticket = await oidcLogin(agent, await authorize(agent, `carol-${target.name}`));
    const step = await agent.call<Answer>("POST", "/v1/user/public/third/bind", {
      token: String(ticket.data.token),
      loginName: email,
      pwd: PWD,
    });
    expect(step.data).toMatchObject({ verifyRequired: true, methods: ["google", "recovery"] });
    expect(await identities(owner)).toEqual([]);
    const done = await agent.call<Answer>("POST", "/v1/user/login/verify-login", {
      verifyToken: String(step.data.verifyToken),
      googleCode: totp(setup.data.secret, server.clock.now),
    });
    await loggedIn(agent, done);
    expect(await identities(owner)).toHaveLength(1);
    server.clock.now += 30_000;

    // Signing in with the provider: the second step again.
    const next = browser();
    const challenged = await oidcLogin(next, await authorize(next, `carol-${target.name}`));
    expect(challenged.data.verifyRequired).toBe(true);
    expect(next.cookies.has(SESSION_COOKIE)).toBe(false);
    const wrongCode = await next.call("POST", "/v1/user/login/verify-login", {
      verifyToken: String(challenged.data.verifyToken),
      googleCode: "000000",
    });
    expect(wrongCode.code).toBe(AccountCode.GOOGLE_CODE_INVALID);
    const ok = await next.call<Answer>("POST", "/v1/user/login/verify-login", {
      verifyToken: String(challenged.data.verifyToken),
      googleCode: totp(setup.data.secret, server.clock.now),
    });
    await loggedIn(next, ok);
  });

  it("refuses a wrong state, issuer or nonce: a 4xx code, counted, nothing changed, in the history", async () => {
    const email = `dave-${target.name}@example.com`;
    const agent = browser();
    await agent.registerEmail(email, PWD);
    const before = (await history(agent)).length;

    // A state this browser never started (and the right one from another browser).
    const callback = await authorize(agent, `dave-${target.name}`);
    const forged = new URLSearchParams(callback.slice(1));
    forged.set("state", "x".repeat(43));
    const badState = await oidcLogin(agent, `?${forged}`);
    expect([badState.status, badState.code]).toEqual([400, ThirdPartyCode.STATE_INVALID]);
    const elsewhere = await oidcLogin(browser(), callback);
    expect(elsewhere.code).toBe(ThirdPartyCode.STATE_INVALID);
    // The other browser's try spent the state: one callback per sign-in, right or wrong.
    expect((await oidcLogin(agent, callback)).code).toBe(ThirdPartyCode.STATE_INVALID);

    // An issuer other than the configured one.
    const wrongIss = new URLSearchParams((await authorize(agent, `dave-${target.name}`)).slice(1));
    wrongIss.set("iss", "https://evil.example");
    const badIss = await oidcLogin(agent, `?${wrongIss}`);
    expect([badIss.status, badIss.code]).toEqual([400, ThirdPartyCode.ISSUER_INVALID]);

    // An ID token whose nonce is not the one this sign-in sent (the stored one altered).
    const nonceCallback = await authorize(agent, `dave-${target.name}`);
    await server.module.service.repo.db.run("UPDATE third_flows SET nonce = ?", ["another-nonce-value"]);
    const badNonce = await oidcLogin(agent, nonceCallback);
    expect([badNonce.status, badNonce.code]).toEqual([400, ThirdPartyCode.NONCE_INVALID]);

    // Nothing was bound or logged in; each refusal is a line in the history of the
    // account this browser used (the try from another browser names no account).
    expect(await identities(agent)).toEqual([]);
    const lines = await history(agent);
    expect(lines.length - before).toBe(4);
    expect(lines.slice(0, 4)).toEqual(["third-party", "third-party", "third-party", "third-party"]);

    // Counted against the address: its budget of 30 runs out.
    const flooder = browser();
    let last = "";
    for (let i = 0; i < 31; i++) last = (await oidcLogin(flooder, `?state=${"y".repeat(40)}${i}`)).code;
    expect(last).toBe(AccountCode.LOGIN_THROTTLED);
  });

  it("Telegram: signed data signs in; a forged hash, stale or replayed data is refused", async () => {
    const agent = browser();
    const tgId = String(700_000 + ipSeq);
    const data = () =>
      signTelegram({
        id: tgId,
        first_name: "Tg",
        username: `tg_${target.name}`,
        auth_date: String(Math.floor(server.clock.now / 1000)),
      });
    const tg = (a: Agent, body: Record<string, string>) =>
      a.call<Answer>("POST", "/v1/user/public/third/telegram/login", body);

    const signed = data();
    const first = await tg(agent, signed);
    expect(first.data).toMatchObject({
      bindRequired: true,
      provider: "telegram",
      display: `@tg_${target.name}`,
    });
    const userId = await loggedIn(
      agent,
      await agent.call<Answer>("POST", "/v1/user/public/third/register", { token: String(first.data.token) }),
    );

    // The same data again: refused.
    const replay = await tg(browser(), signed);
    expect([replay.status, replay.code]).toEqual([409, ThirdPartyCode.TELEGRAM_REPLAYED]);
    // Signed with another bot's token, or altered after signing.
    const { hash: _hash, ...fields } = data();
    const forged = await tg(browser(), signTelegram(fields, "999:another-bot-token-BBBBBBBBBBBBBBBBBBBB"));
    expect([forged.status, forged.code]).toEqual([400, ThirdPartyCode.TELEGRAM_HASH_INVALID]);
    const altered = await tg(browser(), { ...data(), username: "someone_else" });
    expect(altered.code).toBe(ThirdPartyCode.TELEGRAM_HASH_INVALID);
    // More than a day old.
    const stale = await tg(
      browser(),
      signTelegram({
        id: tgId,
        first_name: "Tg",
        auth_date: String(Math.floor(server.clock.now / 1000) - 86_401),
      }),
    );
    expect([stale.status, stale.code]).toEqual([400, ThirdPartyCode.TELEGRAM_STALE]);
    // Each refusal names the account of that Telegram id: in its history.
    const lines = await history(agent);
    expect(lines.filter((r) => r === "third-party")).toHaveLength(4);

    // Fresh data logs the account in; forged data for it is counted against that account.
    server.clock.now += 1_000;
    const returning = browser();
    expect(await loggedIn(returning, await tg(returning, data()))).toBe(userId);
    const attacker = browser();
    let last = "";
    for (let i = 0; i < 6; i++) last = (await tg(attacker, { ...data(), first_name: `x${i}` })).code;
    expect(last).toBe(AccountCode.LOGIN_THROTTLED);
  });

  it("keeps a way into an account without a password: a passkey or a linked sign-in", async () => {
    const agent = browser();
    const ticket = await agent.call<Answer>(
      "POST",
      "/v1/user/public/third/telegram/login",
      signTelegram({
        id: "424242",
        first_name: "Kim",
        auth_date: String(Math.floor(server.clock.now / 1000)),
      }),
    );
    await loggedIn(
      agent,
      await agent.call<Answer>("POST", "/v1/user/public/third/register", {
        token: String(ticket.data.token),
      }),
    );
    // No e-mail or phone: adding a passkey works (its notice has nowhere to go).
    const key = new SoftAuthenticator();
    const options = await agent.call<PasskeyOptions>("POST", "/v1/user/passkey/register/options", {});
    const added = await agent.call<{ id: string }>("POST", "/v1/user/passkey/register", {
      name: "laptop",
      credential: key.register(options.data, ORIGIN),
    });
    expect(added.code).toBe(Code.OK);
    // The passkey is a factor now: a step-up, then Telegram can go, the passkey stays.
    const stepOptions = await agent.call<PasskeyOptions>("POST", "/v1/user/security/stepUp/options", {});
    const stepped = await agent.call("POST", "/v1/user/security/stepUp", {
      fidoVerifyCode: key.assert(stepOptions.data, ORIGIN, { rpId: "meridian.test" }),
    });
    expect(stepped.code).toBe(Code.OK);
    expect((await agent.call("POST", "/v1/user/third/unbind", { provider: "telegram" })).code).toBe(Code.OK);
    const removeLast = await agent.call("POST", "/v1/user/passkey/delete", { id: added.data.id });
    expect([removeLast.status, removeLast.code]).toEqual([409, ThirdPartyCode.LAST_WAY_IN]);
    const list = await agent.call<{ passkeys: unknown[] }>("GET", "/v1/user/security/passkeys");
    expect(list.data.passkeys).toHaveLength(1);
  });

  it("answers a provider that is not configured with 11067", async () => {
    const res = await browser().call("POST", "/v1/user/public/third/oidc/start", { provider: "nobody" });
    expect([res.status, res.code]).toEqual([404, ThirdPartyCode.PROVIDER_UNKNOWN]);
    const list = await browser().call<{ oidc: unknown[]; telegram: unknown }>(
      "GET",
      "/v1/user/public/third/providers",
    );
    expect(list.data).toEqual({
      oidc: [{ id: "idp", name: "Test ID" }],
      telegram: { botName: "meridian_test_bot" },
    });
    // Without the settings the pages offer nothing, and the paths refuse.
    const bare = await securityApp();
    try {
      const none = await new Agent(bare).call("GET", "/v1/user/public/third/providers");
      expect(none.data).toEqual({ oidc: [], telegram: null });
      const tg = await new Agent(bare).call(
        "POST",
        "/v1/user/public/third/telegram/login",
        signTelegram({ id: "1", auth_date: "1" }),
      );
      expect(tg.code).toBe(ThirdPartyCode.PROVIDER_UNKNOWN);
    } finally {
      await bare.app.close();
    }
  });
});

import { AccountCode, Code, SecurityCode } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { Agent, ORIGIN, securityAppPerTest } from "../../test/security-agent.ts";
import { SoftAuthenticator } from "../../test/soft-authenticator.ts";

type Options = { challenge: string; rp?: { id?: string }; rpId?: string };

for (const target of reopenableDbTargets("passkeys")) {
  describe(`passkeys (${target.name})`, () => {
    const run = securityAppPerTest(target);

    async function addPasskey(agent: Agent, key: SoftAuthenticator, name: string, origin = ORIGIN) {
      const options = await agent.call<Options>("POST", "/v1/user/passkey/register/options", {});
      expect(options.code).toBe(Code.OK);
      expect(options.data.rp?.id).toBe("meridian.test");
      return agent.call<{ id: string; name: string }>("POST", "/v1/user/passkey/register", {
        name,
        credential: key.register(options.data, origin),
      });
    }

    async function stepUp(agent: Agent, key: SoftAuthenticator, origin = ORIGIN) {
      const options = await agent.call<Options>("POST", "/v1/user/security/stepUp/options", {});
      expect(options.code).toBe(Code.OK);
      return agent.call<{ validUntil: number }>("POST", "/v1/user/security/stepUp", {
        fidoVerifyCode: key.assert(options.data, origin, { rpId: "meridian.test" }),
      });
    }

    async function passkeyLogin(key: SoftAuthenticator, o: { origin?: string; counter?: number } = {}) {
      const agent = new Agent(run.server);
      const options = await agent.call<Options>("POST", "/v1/user/public/passkey/options", {});
      expect(options.code).toBe(Code.OK);
      const res = await agent.call<{ userInfo: { userId: string } }>("POST", "/v1/user/login/passkey", {
        fidoVerifyCode: key.assert(options.data, o.origin ?? ORIGIN, {
          rpId: "meridian.test",
          ...(o.counter === undefined ? {} : { counter: o.counter }),
        }),
      });
      return { agent, res };
    }

    it("resets a forgotten password with the account's passkey as the second factor", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("rs@example.com", "password-123");
      const key = new SoftAuthenticator();
      expect((await addPasskey(a, key, "Phone")).code).toBe(Code.OK);
      const b = new Agent(run.server);
      await b.registerEmail("rs-other@example.com", "password-123");
      const otherKey = new SoftAuthenticator();
      expect((await addPasskey(b, otherKey, "Other")).code).toBe(Code.OK);

      const visitor = new Agent(run.server);
      const before = run.server.mail.to("rs@example.com").length;
      await visitor.call("POST", "/v1/user/public/password/sendCode", { account: "rs@example.com" });
      const verifyCode = await run.server.mail.code("rs@example.com", before);
      const body = { account: "rs@example.com", verifyCode, pwd: "new-password-456" };
      const reset = async (k?: SoftAuthenticator) => {
        if (k === undefined) return visitor.call("POST", "/v1/user/public/password/reset", body);
        const options = await visitor.call<Options>("POST", "/v1/user/public/password/reset/options", {});
        expect(options.code).toBe(Code.OK);
        const fidoVerifyCode = k.assert(options.data, ORIGIN, { rpId: "meridian.test" });
        return visitor.call("POST", "/v1/user/public/password/reset", { ...body, fidoVerifyCode });
      };
      // No factor: the page is told to confirm with the passkey; the code stays good.
      const bare = await reset();
      expect([bare.status, bare.code]).toEqual([403, SecurityCode.STEP_UP_REQUIRED]);
      // Another account's passkey is refused.
      const foreign = await reset(otherKey);
      expect([foreign.status, foreign.code]).toEqual([400, AccountCode.PASSKEY_INVALID]);
      expect((await reset(key)).code).toBe(Code.OK);
      // The code is spent with the reset, and the new password is the one that works.
      expect((await reset(key)).code).toBe(AccountCode.VERIFY_CODE_INVALID);
      expect((await new Agent(run.server).login("rs@example.com", "password-123")).code).toBe(
        AccountCode.INVALID_CREDENTIALS,
      );
      const step = await new Agent(run.server).login("rs@example.com", "new-password-456");
      expect(step.data).toMatchObject({ verifyRequired: true, methods: ["passkey"] });
    });

    it("registers several named passkeys, lists them, signs in with one alone, removes one", async () => {
      const a = new Agent(run.server);
      const userId = await a.registerEmail("pk@example.com", "password-123");
      const phone = new SoftAuthenticator();
      const laptop = new SoftAuthenticator();
      expect((await addPasskey(a, phone, "Phone")).code).toBe(Code.OK);
      expect((await addPasskey(a, laptop, "Laptop")).code).toBe(Code.OK);
      await run.server.mail.next("pk@example.com", (m) => /passkeys/.test(m.text));
      const list = await a.call<{ passkeys: { id: string; name: string }[] }>(
        "GET",
        "/v1/user/security/passkeys",
      );
      expect(list.data.passkeys.map((p) => p.name)).toEqual(["Phone", "Laptop"]);
      expect(list.data.passkeys.map((p) => p.id)).toEqual([phone.id, laptop.id]);
      // The same credential twice is refused.
      expect((await addPasskey(a, phone, "Again")).code).toBe(AccountCode.PASSKEY_INVALID);

      const { agent, res } = await passkeyLogin(phone);
      expect(res.code).toBe(Code.OK);
      expect(res.data.userInfo.userId).toBe(userId);
      await agent.security.onLoginSuccess(res.data);
      // The session is bound to the device key the encrypted request proved: signed calls pass.
      expect((await agent.call("POST", "/v1/user/agreement/contract")).code).toBe(Code.OK);

      // Removing a factor needs a step-up: the registering session proved none.
      const refused = await a.call("POST", "/v1/user/passkey/delete", { id: phone.id });
      expect(refused.status).toBe(403);
      expect(refused.code).toBe(SecurityCode.STEP_UP_REQUIRED);
      expect((await stepUp(a, laptop)).code).toBe(Code.OK);
      expect((await a.call("POST", "/v1/user/passkey/delete", { id: phone.id })).code).toBe(Code.OK);
      expect((await a.call("POST", "/v1/user/passkey/delete", { id: phone.id })).code).toBe(
        SecurityCode.NOT_BOUND,
      );
      expect((await passkeyLogin(phone)).res.code).toBe(AccountCode.PASSKEY_INVALID);
      expect((await passkeyLogin(laptop)).res.code).toBe(Code.OK);
    });

    it("refuses a wrong origin, a replayed challenge and a counter that went backwards, each recorded", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("pk-bad@example.com", "password-123");
      const key = new SoftAuthenticator();
      const wrongOrigin = await addPasskey(a, key, "Evil", "https://evil.example");
      expect(wrongOrigin.status).toBe(400);
      expect(wrongOrigin.code).toBe(AccountCode.PASSKEY_INVALID);
      expect((await addPasskey(a, key, "Key")).code).toBe(Code.OK);

      const evil = await passkeyLogin(key, { origin: "https://evil.example" });
      expect(evil.res.status).toBe(400);
      expect(evil.res.code).toBe(AccountCode.PASSKEY_INVALID);
      expect(evil.agent.cookies.has("mer_token")).toBe(false);

      expect((await passkeyLogin(key, { counter: 10 })).res.code).toBe(Code.OK);
      const backwards = await passkeyLogin(key, { counter: 9 });
      expect(backwards.res.code).toBe(AccountCode.PASSKEY_INVALID);
      expect(backwards.res.msg).toMatch(/counter/);
      const same = await passkeyLogin(key, { counter: 10 });
      expect(same.res.code).toBe(AccountCode.PASSKEY_INVALID);

      // A challenge is spent by its first use, right or wrong.
      const agent = new Agent(run.server);
      const options = await agent.call<Options>("POST", "/v1/user/public/passkey/options", {});
      const first = key.assert(options.data, ORIGIN, { rpId: "meridian.test" });
      expect((await agent.call("POST", "/v1/user/login/passkey", { fidoVerifyCode: first })).code).toBe(
        Code.OK,
      );
      const replay = await new Agent(run.server).call("POST", "/v1/user/login/passkey", {
        fidoVerifyCode: key.assert(options.data, ORIGIN, { rpId: "meridian.test" }),
      });
      expect(replay.code).toBe(AccountCode.PASSKEY_INVALID);

      const history = await a.call<{ items: { success: boolean; reason: string | null }[] }>(
        "GET",
        "/v1/user/security/loginHistory?pageSize=100",
      );
      expect(history.data.items.filter((h) => h.reason === "second-factor")).toHaveLength(4);
      // Failures since the last success count against the owner's second-factor budget (5):
      // the replay and four more are checked, then even a right assertion is refused unchecked.
      for (let i = 0; i < 4; i++)
        expect((await passkeyLogin(key, { origin: "https://evil.example" })).res.code).toBe(
          AccountCode.PASSKEY_INVALID,
        );
      const right = await passkeyLogin(key);
      expect(right.res.status).toBe(429);
      expect(right.res.code).toBe(AccountCode.LOGIN_THROTTLED);
    });

    it("is the second factor after the password: fidoVerifyCode on verify-login-v2", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("pk-2fa@example.com", "password-123");
      const key = new SoftAuthenticator();
      await addPasskey(a, key, "Key");
      const b = new Agent(run.server);
      const step1 = await b.login("pk-2fa@example.com", "password-123");
      expect(step1.data).toMatchObject({ verifyRequired: true, methods: ["passkey"] });
      const fidoOptions = step1.data.fidoOptions as Options & { allowCredentials: { id: string }[] };
      expect(fidoOptions.allowCredentials.map((c) => c.id)).toEqual([key.id]);
      const verifyToken = String(step1.data.verifyToken);
      const wrong = await b.call("POST", "/v1/user/login/verify-login-v2", {
        verifyToken,
        fidoVerifyCode: key.assert(fidoOptions, "https://evil.example", { rpId: "meridian.test" }),
      });
      expect(wrong.code).toBe(AccountCode.PASSKEY_INVALID);
      // The first try spent the challenge's WebAuthn challenge: a new password step gives a new one.
      const step2 = await b.login("pk-2fa@example.com", "password-123");
      const options2 = step2.data.fidoOptions as Options;
      const ok = await b.call("POST", "/v1/user/login/verify-login-v2", {
        verifyToken: String(step2.data.verifyToken),
        fidoVerifyCode: key.assert(options2, ORIGIN, { rpId: "meridian.test" }),
      });
      expect(ok.code).toBe(Code.OK);
      // Another user's passkey does not answer this user's challenge.
      const c = new Agent(run.server);
      await c.registerEmail("pk-other@example.com", "password-123");
      const other = new SoftAuthenticator();
      await addPasskey(c, other, "Other");
      const step3 = await new Agent(run.server).login("pk-2fa@example.com", "password-123");
      const stolen = await b.call("POST", "/v1/user/login/verify-login-v2", {
        verifyToken: String(step3.data.verifyToken),
        fidoVerifyCode: other.assert(step3.data.fidoOptions as Options, ORIGIN, { rpId: "meridian.test" }),
      });
      expect(stolen.code).toBe(AccountCode.PASSKEY_INVALID);
    });

    it("asks a passkey account for a step-up at most 5 minutes old before sensitive changes", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("pk-step@example.com", "password-123");
      const key = new SoftAuthenticator();
      await addPasskey(a, key, "Key");
      const change = (pwd: string, oldPwd: string) =>
        a.call("POST", "/v1/user/security/password/change", { oldPwd, pwd });
      const refused = await change("password-456", "password-123");
      expect([refused.status, refused.code]).toEqual([403, SecurityCode.STEP_UP_REQUIRED]);
      const evil = await stepUp(a, key, "https://evil.example");
      expect(evil.code).toBe(AccountCode.PASSKEY_INVALID);
      expect((await change("password-456", "password-123")).code).toBe(SecurityCode.STEP_UP_REQUIRED);
      const proved = await stepUp(a, key);
      expect(proved.code).toBe(Code.OK);
      expect(proved.data.validUntil).toBe(run.server.clock.now + 5 * 60_000);
      expect((await change("password-456", "password-123")).code).toBe(Code.OK);
      // A login with the passkey proves a factor: the new session may change things at once.
      const { agent, res } = await passkeyLogin(key);
      expect(res.code).toBe(Code.OK);
      await agent.security.onLoginSuccess(res.data);
      expect(
        (
          await agent.call("POST", "/v1/user/security/password/change", {
            oldPwd: "password-456",
            pwd: "password-789",
          })
        ).code,
      ).toBe(Code.OK);
      // Five minutes after that login the step-up has lapsed: the change is refused again.
      run.server.clock.now += 5 * 60_000 + 1_000;
      const late = await agent.call("POST", "/v1/user/security/password/change", {
        oldPwd: "password-789",
        pwd: "password-abc",
      });
      expect(late.code).toBe(SecurityCode.STEP_UP_REQUIRED);
      expect((await agent.call("POST", "/v1/user/passkey/delete", { id: key.id })).code).toBe(
        SecurityCode.STEP_UP_REQUIRED,
      );
    });
  });
}

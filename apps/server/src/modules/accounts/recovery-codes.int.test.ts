import { AccountCode, Code, RECOVERY_CODE_COUNT, SecurityCode } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { Agent, securityAppPerTest } from "../../test/security-agent.ts";
import { totp } from "./totp.ts";

interface Bound {
  agent: Agent;
  secret: string;
  codes: string[];
}

for (const target of reopenableDbTargets("recovery")) {
  describe(`recovery codes (${target.name})`, () => {
    const run = securityAppPerTest(target);

    /** A new account with the authenticator bound at the server's clock; the codes the bind answered. */
    async function bound(email: string): Promise<Bound> {
      const agent = new Agent(run.server);
      await agent.registerEmail(email, "password-123");
      const setup = await agent.call<{ secret: string }>("POST", "/v1/user/google/setup");
      const bind = await agent.call<{ recoveryCodes: string[] }>("POST", "/v1/user/google/bind", {
        googleCode: totp(setup.data.secret, run.server.clock.now),
      });
      expect(bind.code).toBe(Code.OK);
      // The next authenticator code must come from a later time step (each step works once).
      run.server.clock.now += 30_000;
      return { agent, secret: setup.data.secret, codes: bind.data.recoveryCodes };
    }

    async function remaining(agent: Agent): Promise<number> {
      const res = await agent.call<{ remaining: number; total: number }>(
        "GET",
        "/v1/user/security/recoveryCodes",
      );
      expect(res.code).toBe(Code.OK);
      expect(res.data.total).toBe(RECOVERY_CODE_COUNT);
      return res.data.remaining;
    }

    async function challenge(email: string): Promise<{ agent: Agent; verifyToken: string }> {
      const agent = new Agent(run.server);
      const step1 = await agent.login(email, "password-123");
      expect(step1.code).toBe(Code.OK);
      return { agent, verifyToken: String(step1.data.verifyToken) };
    }

    it("issues ten distinct codes, stored hashed; each logs in once, the second try is refused", async () => {
      const { agent, codes } = await bound("rc@example.com");
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const c of codes) expect(c).toMatch(/^[a-hj-km-np-z2-9]{5}-[a-hj-km-np-z2-9]{5}$/);
      const stored = await run.server.module.service.repo.db.all<{ code_hash: string }>(
        "SELECT code_hash FROM recovery_codes",
      );
      expect(stored).toHaveLength(10);
      for (const row of stored) {
        expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
        for (const c of codes) expect(row.code_hash).not.toContain(c.replace("-", ""));
      }
      expect(await remaining(agent)).toBe(10);

      for (const [i, code] of codes.entries()) {
        const first = await challenge("rc@example.com");
        // Case and the dash do not matter: the code is read as the user types it.
        const typed = i % 2 === 0 ? code : code.toUpperCase().replace("-", " ");
        const ok = await first.agent.call("POST", "/v1/user/login/verify-login", {
          verifyToken: first.verifyToken,
          recoveryCode: typed,
        });
        expect(ok.code).toBe(Code.OK);
        expect(first.agent.cookies.has("mer_token")).toBe(true);
        if (i === 0) {
          // The session is bound to the key the second step proved: signed calls pass.
          await first.agent.security.onLoginSuccess(ok.data);
          const signed = await first.agent.call("POST", "/v1/user/agreement/contract");
          expect(signed.code).toBe(Code.OK);
        }

        const second = await challenge("rc@example.com");
        const replay = await second.agent.call("POST", "/v1/user/login/verify-login", {
          verifyToken: second.verifyToken,
          recoveryCode: code,
        });
        expect(replay.status).toBe(400);
        expect(replay.code).toBe(AccountCode.RECOVERY_CODE_INVALID);
        expect(second.agent.cookies.has("mer_token")).toBe(false);
        expect(await remaining(agent)).toBe(9 - i);
      }
      // With every code spent the login offers the authenticator alone.
      const answer = await new Agent(run.server).login("rc@example.com", "password-123");
      expect(answer.data).toMatchObject({ verifyRequired: true, methods: ["google"] });

      const history = await agent.call<{ items: { success: boolean; reason: string | null }[] }>(
        "GET",
        "/v1/user/security/loginHistory?pageSize=100",
      );
      expect(history.data.items.filter((h) => h.reason === "second-factor")).toHaveLength(10);
    });

    it("refuses a wrong code under the second-factor limit: five checked, then 429 even for a right one", async () => {
      const { codes } = await bound("rc-limit@example.com");
      const { agent, verifyToken } = await challenge("rc-limit@example.com");
      const answers: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await agent.call("POST", "/v1/user/login/verify-login", {
          verifyToken,
          recoveryCode: `zzzzz-zzzz${i + 2}`,
        });
        answers.push(res.code);
      }
      expect(answers).toEqual(Array(5).fill(AccountCode.RECOVERY_CODE_INVALID));
      const next = await challenge("rc-limit@example.com");
      const right = await next.agent.call("POST", "/v1/user/login/verify-login", {
        verifyToken: next.verifyToken,
        recoveryCode: codes[0],
      });
      expect(right.status).toBe(429);
      expect(right.code).toBe(AccountCode.LOGIN_THROTTLED);
      // Refused unchecked: the code was not spent.
      run.server.clock.now += 61_000;
      const later = await challenge("rc-limit@example.com");
      const after = await later.agent.call("POST", "/v1/user/login/verify-login", {
        verifyToken: later.verifyToken,
        recoveryCode: codes[0],
      });
      expect(after.code).toBe(Code.OK);
    });

    it("answers a malformed code with 10422 naming the field", async () => {
      await bound("rc-bad@example.com");
      const { agent, verifyToken } = await challenge("rc-bad@example.com");
      const res = await agent.call<{ field?: string }[]>("POST", "/v1/user/login/verify-login", {
        verifyToken,
        recoveryCode: "0000-<script>",
      });
      expect(res.status).toBe(400);
      expect(res.code).toBe(Code.VALIDATION_FAILED);
      expect(JSON.stringify(res.data)).toContain("recoveryCode");
    });

    it("regenerates with a current authenticator code only; the old codes stop working", async () => {
      const { agent, secret, codes } = await bound("rc-new@example.com");
      const wrong = await agent.call("POST", "/v1/user/google/recoveryCodes", { googleCode: "000000" });
      expect(wrong.code).toBe(AccountCode.GOOGLE_CODE_INVALID);
      expect(await remaining(agent)).toBe(10);
      const mails = run.server.mail.to("rc-new@example.com").length;
      const fresh = await agent.call<{ recoveryCodes: string[] }>("POST", "/v1/user/google/recoveryCodes", {
        googleCode: totp(secret, run.server.clock.now),
      });
      expect(fresh.code).toBe(Code.OK);
      expect(fresh.data.recoveryCodes).toHaveLength(10);
      expect(fresh.data.recoveryCodes.some((c) => codes.includes(c))).toBe(false);
      const notice = await run.server.mail.next("rc-new@example.com", (m) => /recovery codes/.test(m.text));
      expect(run.server.mail.to("rc-new@example.com").length).toBe(mails + 1);
      expect(notice.text).not.toContain(fresh.data.recoveryCodes[0]);
      // The same authenticator code again is a replay.
      const replay = await agent.call("POST", "/v1/user/google/recoveryCodes", {
        googleCode: totp(secret, run.server.clock.now),
      });
      expect(replay.code).toBe(AccountCode.GOOGLE_CODE_INVALID);

      const old = await challenge("rc-new@example.com");
      const refused = await old.agent.call("POST", "/v1/user/login/verify-login", {
        verifyToken: old.verifyToken,
        recoveryCode: codes[0],
      });
      expect(refused.code).toBe(AccountCode.RECOVERY_CODE_INVALID);
      const ok = await old.agent.call("POST", "/v1/user/login/verify-login", {
        verifyToken: old.verifyToken,
        recoveryCode: fresh.data.recoveryCodes[3],
      });
      expect(ok.code).toBe(Code.OK);
    });

    it("stands in for the authenticator on the security pages: password change and unbinding", async () => {
      const { agent, codes } = await bound("rc-page@example.com");
      const [first = "", second = "", third = ""] = codes;
      const noFactor = await agent.call("POST", "/v1/user/security/password/change", {
        oldPwd: "password-123",
        pwd: "password-456",
      });
      expect(noFactor.code).toBe(AccountCode.GOOGLE_CODE_INVALID);
      const changed = await agent.call("POST", "/v1/user/security/password/change", {
        oldPwd: "password-123",
        pwd: "password-456",
        recoveryCode: first,
      });
      expect(changed.code).toBe(Code.OK);
      const again = await agent.call("POST", "/v1/user/security/password/change", {
        oldPwd: "password-456",
        pwd: "password-789",
        recoveryCode: first,
      });
      expect(again.code).toBe(AccountCode.RECOVERY_CODE_INVALID);
      expect((await new Agent(run.server).login("rc-page@example.com", "password-789")).code).toBe(
        AccountCode.INVALID_CREDENTIALS,
      );

      // A lost authenticator: unbound with the e-mail code and a recovery code.
      let mails = run.server.mail.to("rc-page@example.com").length;
      await agent.call("POST", "/v1/user/security/sendCode", { purpose: "unbindGoogle" });
      let verifyCode = await run.server.mail.code("rc-page@example.com", mails);
      const spent = await agent.call("POST", "/v1/user/google/unbind", { verifyCode, recoveryCode: first });
      expect(spent.code).toBe(AccountCode.RECOVERY_CODE_INVALID);
      let info = await agent.call<{ settings: Record<string, boolean> }>(
        "POST",
        "/v1/user/overview/userinfo",
      );
      expect(info.data.settings).toMatchObject({ bindGoogle: true });
      const neither = await agent.call("POST", "/v1/user/google/unbind", { verifyCode });
      expect(neither.code).toBe(Code.VALIDATION_FAILED);

      mails = run.server.mail.to("rc-page@example.com").length;
      await agent.call("POST", "/v1/user/security/sendCode", { purpose: "unbindGoogle" });
      verifyCode = await run.server.mail.code("rc-page@example.com", mails);
      const unbound = await agent.call("POST", "/v1/user/google/unbind", {
        verifyCode,
        recoveryCode: second,
      });
      expect(unbound.code).toBe(Code.OK);
      info = await agent.call<{ settings: Record<string, boolean> }>("POST", "/v1/user/overview/userinfo");
      expect(info.data.settings).toMatchObject({ bindGoogle: false, googleEnable: false });
      // The codes went with the authenticator.
      expect(await remaining(agent)).toBe(0);
      const rows = await run.server.module.service.repo.db.all("SELECT * FROM recovery_codes");
      expect(rows).toHaveLength(0);
      const noLonger = await agent.call("POST", "/v1/user/google/recoveryCodes", { googleCode: "123456" });
      expect(noLonger.code).toBe(SecurityCode.NOT_BOUND);
      expect(third).not.toBe("");
    });
  });
}

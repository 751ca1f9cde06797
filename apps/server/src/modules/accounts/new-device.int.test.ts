import { AccountCode, Code } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { Agent, securityAppPerTest, type TestServer } from "../../test/security-agent.ts";
import { totp } from "./totp.ts";

const PWD = "password-123";

interface Challenge {
  verifyRequired: boolean;
  verifyToken: string;
  methods: string[];
  sentTo?: string;
  newDevice?: boolean;
}

/** The password step alone (Agent.login would answer the e-mail code itself). */
async function passwordStep(agent: Agent, loginName: string) {
  return agent.call<Challenge>("POST", "/v1/user/login", { loginName, pwd: PWD });
}

async function registered(server: TestServer, email: string): Promise<Agent> {
  const a = new Agent(server);
  await a.registerEmail(email, PWD);
  return a;
}

const VERIFY = "/v1/user/login/verify-login";

for (const target of reopenableDbTargets("newdev")) {
  describe(`login from a new device (${target.name})`, () => {
    const run = securityAppPerTest(target);

    it("asks a browser the account never used for a mailed code, once; pages show how it was let in", async () => {
      const home = await registered(run.server, "nd@example.com");
      const other = new Agent(run.server);
      const before = run.server.mail.to("nd@example.com").length;
      const step = await passwordStep(other, "nd@example.com");
      expect(step.code).toBe(Code.OK);
      expect(step.data).toMatchObject({ verifyRequired: true, methods: ["email"], newDevice: true });
      expect(step.data.sentTo).toBe("n***@example.com");
      // No session before the code.
      expect((await other.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.SESSION_INVALID);
      const code = await run.server.mail.code("nd@example.com", before);

      const bad = await other.call("POST", VERIFY, {
        verifyToken: step.data.verifyToken,
        emailCode: code === "000000" ? "111111" : "000000",
      });
      expect([bad.status, bad.code]).toEqual([400, AccountCode.VERIFY_CODE_INVALID]);
      const ok = await other.call<{ userInfo: { userId: string } }>("POST", VERIFY, {
        verifyToken: step.data.verifyToken,
        emailCode: code,
      });
      expect(ok.code).toBe(Code.OK);
      await other.security.onLoginSuccess(ok.data);
      expect((await other.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.OK);
      // Replayed: the step is spent.
      const replay = await new Agent(run.server).call("POST", VERIFY, {
        verifyToken: step.data.verifyToken,
        emailCode: code,
      });
      expect([replay.status, replay.code]).toEqual([400, AccountCode.VERIFY_CODE_INVALID]);

      // The same browser again: known, no code, no mail.
      const mails = run.server.mail.to("nd@example.com").length;
      const again = await passwordStep(other, "nd@example.com");
      expect(again.data.verifyRequired).toBe(false);
      expect(run.server.mail.to("nd@example.com").length).toBe(mails);
      // The browser that signed up is known too.
      expect((await passwordStep(home, "nd@example.com")).data.verifyRequired).toBe(false);

      const devices = await home.call<{ devices: { current: boolean; verifiedBy: string | null }[] }>(
        "GET",
        "/v1/user/security/devices",
      );
      expect(devices.data.devices.find((d) => d.current)?.verifiedBy).toBeNull();
      expect(devices.data.devices.find((d) => !d.current)?.verifiedBy).toBe("email");
      const history = await home.call<{
        items: { success: boolean; reason: string | null; newDevice: boolean; verifiedBy: string | null }[];
      }>("GET", "/v1/user/security/loginHistory?page=1&pageSize=10");
      // Newest first: home's login, other's second login, other's first (by code), the wrong code.
      expect(history.data.items.map((i) => [i.success, i.reason, i.newDevice, i.verifiedBy])).toEqual([
        [true, null, false, null],
        [true, null, false, null],
        [true, null, true, "email"],
        [false, "second-factor", false, null],
      ]);
    });

    it("refuses an expired code and counts wrong codes against the limits", async () => {
      await registered(run.server, "lim@example.com");
      const late = new Agent(run.server);
      const before = run.server.mail.to("lim@example.com").length;
      const step = await passwordStep(late, "lim@example.com");
      const code = await run.server.mail.code("lim@example.com", before);
      run.server.clock.now += 10 * 60_000 + 1;
      late.security.alignClock(run.server.clock.now);
      const expired = await late.call("POST", VERIFY, {
        verifyToken: step.data.verifyToken,
        emailCode: code,
      });
      expect([expired.status, expired.code]).toEqual([400, AccountCode.VERIFY_CODE_INVALID]);

      const guesser = new Agent(run.server);
      guesser.security.alignClock(run.server.clock.now);
      const sent = run.server.mail.to("lim@example.com").length;
      const fresh = await passwordStep(guesser, "lim@example.com");
      const right = await run.server.mail.code("lim@example.com", sent);
      const wrongCode = right === "000000" ? "111111" : "000000";
      for (let i = 0; i < 5; i++) {
        const r = await guesser.call("POST", VERIFY, {
          verifyToken: fresh.data.verifyToken,
          emailCode: wrongCode,
        });
        expect(r.code).toBe(AccountCode.VERIFY_CODE_INVALID);
      }
      const blocked = await guesser.call("POST", VERIFY, {
        verifyToken: fresh.data.verifyToken,
        emailCode: right,
      });
      expect([blocked.status, blocked.code]).toEqual([429, AccountCode.LOGIN_THROTTLED]);
    });

    it("asks the first login of an account made without a browser (admin, demo) for the code too", async () => {
      await run.server.module.service.createUser({
        email: "made@example.com",
        areaCode: null,
        mobile: null,
        phoneKey: null,
        password: PWD,
        role: "admin",
      });
      const a = new Agent(run.server);
      expect((await passwordStep(a, "made@example.com")).data).toMatchObject({ newDevice: true });
      // Agent.login answers it from the mail, as the person reading the inbox (or the log) would.
      expect((await new Agent(run.server).login("made@example.com", PWD)).code).toBe(Code.OK);
    });

    it("asks an account with an authenticator for it, not for an e-mail code", async () => {
      const a = await registered(run.server, "tf@example.com");
      const setup = await a.call<{ secret: string }>("POST", "/v1/user/google/setup");
      const bind = await a.call("POST", "/v1/user/google/bind", {
        googleCode: totp(setup.data.secret, run.server.clock.now),
      });
      expect(bind.code).toBe(Code.OK);
      const mails = run.server.mail.to("tf@example.com").length;
      const step = await passwordStep(new Agent(run.server), "tf@example.com");
      expect(step.data.methods).toContain("google");
      expect(step.data.methods).not.toContain("email");
      expect(step.data.newDevice).toBeUndefined();
      expect(run.server.mail.to("tf@example.com").length).toBe(mails);
    });
  });
}

import { AccountCode, Code, SecurityCode } from "@meridian/contracts";
import { describe, expect, it } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { Agent, securityAppPerTest, type TestServer } from "../../test/security-agent.ts";
import { totp } from "./totp.ts";

const CHROME_WIN =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const FIREFOX_MAC = "Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:133.0) Gecko/20100101 Firefox/133.0";

/** An agent that always sends this user agent (a browser of its own: its own device cookie). */
function browser(server: TestServer, ua: string, locale = "en"): Agent {
  const a = new Agent(server);
  const call = a.call.bind(a);
  a.call = (method, url, body, extra = {}) =>
    call(method, url, body, { ...extra, headers: { "user-agent": ua, locale, ...extra.headers } });
  return a;
}

for (const target of reopenableDbTargets("acctsec")) {
  describe(`account security (${target.name})`, () => {
    const run = securityAppPerTest(target);

    it("changes the password: wrong current refused, other sessions ended, a notice mailed", async () => {
      const a = browser(run.server, CHROME_WIN);
      await a.registerEmail("pw@example.com", "password-123");
      const b = browser(run.server, FIREFOX_MAC);
      expect((await b.login("pw@example.com", "password-123")).code).toBe(Code.OK);

      const wrong = await a.call("POST", "/v1/user/security/password/change", {
        oldPwd: "nope-nope-nope",
        pwd: "new-password-456",
      });
      expect(wrong.code).toBe(SecurityCode.PASSWORD_WRONG);
      const same = await a.call("POST", "/v1/user/security/password/change", {
        oldPwd: "password-123",
        pwd: "password-123",
      });
      expect(same.code).toBe(SecurityCode.PASSWORD_UNCHANGED);
      const before = run.server.mail.to("pw@example.com").length;
      const changed = await a.call<{ revoked: number }>("POST", "/v1/user/security/password/change", {
        oldPwd: "password-123",
        pwd: "new-password-456",
      });
      expect(changed.code).toBe(Code.OK);
      expect(changed.data.revoked).toBe(1);
      expect((await a.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.OK);
      expect((await b.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.SESSION_INVALID);
      const notice = await run.server.mail.next("pw@example.com", (m) => /password was changed/.test(m.text));
      expect(run.server.mail.to("pw@example.com").length).toBe(before + 1);
      expect(notice.subject).toBe("Your Meridian password was changed");
      expect(notice.text).toContain("Chrome 131, Windows");
      expect(notice.html).toContain('<html lang="en" dir="ltr">');
      expect((await new Agent(run.server).login("pw@example.com", "password-123")).code).toBe(
        AccountCode.INVALID_CREDENTIALS,
      );
      expect((await new Agent(run.server).login("pw@example.com", "new-password-456")).code).toBe(Code.OK);
    });

    it("limits password guesses on the change form", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("guess@example.com", "password-123");
      const codes: string[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await a.call("POST", "/v1/user/security/password/change", {
          oldPwd: `wrong-${i}-password`,
          pwd: "new-password-456",
        });
        codes.push(res.code);
      }
      // Five guesses are checked (each counted before the check), the sixth is refused unchecked.
      expect(codes.slice(0, 5)).toEqual(Array(5).fill(SecurityCode.PASSWORD_WRONG));
      expect(codes.slice(5)).toEqual([AccountCode.LOGIN_THROTTLED]);
      const right = await a.call("POST", "/v1/user/security/password/change", {
        oldPwd: "password-123",
        pwd: "new-password-456",
      });
      expect(right.code).toBe(AccountCode.LOGIN_THROTTLED);
      run.server.clock.now += 61_000;
      expect(
        (
          await a.call("POST", "/v1/user/security/password/change", {
            oldPwd: "password-123",
            pwd: "new-password-456",
          })
        ).code,
      ).toBe(Code.OK);
    });

    it("resets a forgotten password by e-mail code, in the user's language, ending every session", async () => {
      const a = browser(run.server, CHROME_WIN, "de");
      await a.registerEmail("reset@example.com", "password-123");
      const anon = new Agent(run.server);
      const unknown = await anon.call<{ sentTo: string }>("POST", "/v1/user/public/password/sendCode", {
        account: "nobody@example.com",
      });
      expect(unknown.code).toBe(Code.OK);
      expect(unknown.data.sentTo).toBe("n***@example.com");
      expect(run.server.mail.to("nobody@example.com")).toHaveLength(0);

      const before = run.server.mail.to("reset@example.com").length;
      await anon.call("POST", "/v1/user/public/password/sendCode", { account: "reset@example.com" });
      const mail = await run.server.mail.next("reset@example.com", (m) =>
        m.subject.includes("Bestätigungscode"),
      );
      expect(mail.text).toContain("Ihr Bestätigungscode lautet");
      const code = await run.server.mail.code("reset@example.com", before);
      const bad = await anon.call("POST", "/v1/user/public/password/reset", {
        account: "reset@example.com",
        verifyCode: code === "000000" ? "111111" : "000000",
        pwd: "reset-password-789",
      });
      expect(bad.code).toBe(AccountCode.VERIFY_CODE_INVALID);
      const done = await anon.call("POST", "/v1/user/public/password/reset", {
        account: "reset@example.com",
        verifyCode: code,
        pwd: "reset-password-789",
      });
      expect(done.code).toBe(Code.OK);
      expect((await a.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.SESSION_INVALID);
      expect((await new Agent(run.server).login("reset@example.com", "reset-password-789")).code).toBe(
        Code.OK,
      );
      const again = await anon.call("POST", "/v1/user/public/password/reset", {
        account: "reset@example.com",
        verifyCode: code,
        pwd: "other-password-000",
      });
      expect(again.code).toBe(AccountCode.VERIFY_CODE_INVALID);
    });

    it("sets the anti-phishing code with a code, and every later message carries it", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("ap@example.com", "password-123");
      const before = run.server.mail.to("ap@example.com").length;
      const sent = await a.call<{ sentTo: string }>("POST", "/v1/user/security/sendCode", {
        purpose: "antiPhishing",
      });
      expect(sent.data.sentTo).toBe("a***@example.com");
      const verifyCode = await run.server.mail.code("ap@example.com", before);
      const invalid = await a.call("POST", "/v1/user/security/antiPhishing", {
        antiPhishingCode: "<b>x</b>",
        verifyCode,
      });
      expect(invalid.status).toBe(400);
      expect(invalid.code).toBe(Code.VALIDATION_FAILED);
      const set = await a.call("POST", "/v1/user/security/antiPhishing", {
        antiPhishingCode: "Falcon42",
        verifyCode,
      });
      expect(set.code).toBe(Code.OK);
      const info = await a.call<{ userInfo: { antiPhishingCode: string } }>(
        "POST",
        "/v1/user/overview/userinfo",
      );
      expect(info.data.userInfo.antiPhishingCode).toBe("Falcon42");
      const notice = await run.server.mail.next("ap@example.com", (m) =>
        m.text.includes("anti-phishing code was"),
      );
      expect(notice.text.split(/\r?\n/)[0]).toBe("Anti-phishing code: Falcon42");
      expect(notice.html).toContain("data-anti-phishing>Anti-phishing code: Falcon42</p>");
      await a.call("POST", "/v1/user/security/sendCode", { purpose: "changeEmail" });
      const codeMail = await run.server.mail.next("ap@example.com", (m) =>
        m.subject.includes("verification code"),
      );
      expect(codeMail.text).toContain("Anti-phishing code: Falcon42");
    });

    it("lists devices with this one marked, mails a new-device login, and logs other devices out", async () => {
      const a = browser(run.server, CHROME_WIN);
      await a.registerEmail("dev@example.com", "password-123");
      const firstMails = run.server.mail.to("dev@example.com").length;
      const b = browser(run.server, FIREFOX_MAC);
      expect((await b.login("dev@example.com", "password-123")).code).toBe(Code.OK);
      const notice = await run.server.mail.next("dev@example.com", (m) => m.subject.includes("New login"));
      expect(notice.text).toContain("Firefox 133, macOS");
      // The login code the new browser was asked for, then the notice.
      expect(run.server.mail.to("dev@example.com").length).toBe(firstMails + 2);
      // The same browser again is no longer new: no code, no notice.
      expect((await b.login("dev@example.com", "password-123")).code).toBe(Code.OK);
      expect(run.server.mail.to("dev@example.com").length).toBe(firstMails + 2);

      const list = await a.call<{
        devices: { deviceId: string; browser: string; os: string; sessions: number; current: boolean }[];
      }>("GET", "/v1/user/security/devices");
      expect(list.code).toBe(Code.OK);
      expect(list.data.devices).toHaveLength(2);
      const mine = list.data.devices.find((d) => d.current);
      const other = list.data.devices.find((d) => !d.current);
      expect(mine).toMatchObject({ browser: "Chrome 131", os: "Windows", sessions: 1 });
      expect(other).toMatchObject({ browser: "Firefox 133", os: "macOS", sessions: 2 });

      const missing = await a.call("POST", "/v1/user/security/devices/revoke", { deviceId: "ab".repeat(32) });
      expect(missing.code).toBe(SecurityCode.DEVICE_NOT_FOUND);
      const revoked = await a.call<{ revoked: number }>("POST", "/v1/user/security/devices/revoke", {
        deviceId: other?.deviceId,
      });
      expect(revoked.data.revoked).toBe(2);
      expect((await b.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.SESSION_INVALID);
      expect((await a.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.OK);

      expect((await b.login("dev@example.com", "password-123")).code).toBe(Code.OK);
      const all = await a.call<{ revoked: number }>("POST", "/v1/user/security/devices/revokeOthers");
      expect(all.data.revoked).toBe(1);
      expect((await b.call("POST", "/v1/user/overview/userinfo")).code).toBe(Code.SESSION_INVALID);
    });

    it("keeps the login history with failures and reasons, paged, for 90 days", async () => {
      const a = browser(run.server, CHROME_WIN);
      await a.registerEmail("hist@example.com", "password-123");
      const other = browser(run.server, FIREFOX_MAC);
      expect((await other.login("hist@example.com", "wrong-password")).code).toBe(
        AccountCode.INVALID_CREDENTIALS,
      );
      run.server.clock.now += 1000;
      expect((await other.login("hist@example.com", "password-123")).code).toBe(Code.OK);
      run.server.clock.now += 1000;
      expect((await a.login("hist@example.com", "password-123")).code).toBe(Code.OK);
      const page1 = await a.call<{
        items: { success: boolean; reason: string | null; browser: string; os: string }[];
        total: number;
      }>("GET", "/v1/user/security/loginHistory?page=1&pageSize=2");
      expect(page1.data.total).toBe(3);
      expect(page1.data.items).toEqual([
        expect.objectContaining({ success: true, reason: null, browser: "Chrome 131", os: "Windows" }),
        expect.objectContaining({ success: true, browser: "Firefox 133" }),
      ]);
      const page2 = await a.call<{ items: { success: boolean; reason: string | null }[] }>(
        "GET",
        "/v1/user/security/loginHistory?page=2&pageSize=2",
      );
      expect(page2.data.items).toEqual([expect.objectContaining({ success: false, reason: "password" })]);
      const bad = await a.call("GET", "/v1/user/security/loginHistory?pageSize=1000");
      expect(bad.status).toBe(400);
      // The failure ages past the 90 days: it drops out of the history.
      await run.server.app.platform.db.run("UPDATE login_history SET at = ? WHERE success = 0", [
        run.server.clock.now - 91 * 24 * 60 * 60_000,
      ]);
      const later = await a.call<{ total: number }>("GET", "/v1/user/security/loginHistory");
      expect(later.data.total).toBe(2);
    });

    it("changes the bound e-mail with codes to the old and the new address", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("old@example.com", "password-123");
      const oldBefore = run.server.mail.to("old@example.com").length;
      await a.call("POST", "/v1/user/security/sendCode", { purpose: "changeEmail", to: "current" });
      const oldCode = await run.server.mail.code("old@example.com", oldBefore);
      const taken = new Agent(run.server);
      await taken.registerEmail("taken@example.com", "password-123");
      const busy = await a.call("POST", "/v1/user/security/sendCode", {
        purpose: "changeEmail",
        to: "new",
        email: "taken@example.com",
      });
      expect(busy.code).toBe(SecurityCode.ADDRESS_TAKEN);
      await a.call("POST", "/v1/user/security/sendCode", {
        purpose: "changeEmail",
        to: "new",
        email: "new@example.com",
      });
      const newCode = await run.server.mail.code("new@example.com");
      const swapped = await a.call("POST", "/v1/user/security/email/change", {
        email: "new@example.com",
        oldCode: newCode,
        newCode: oldCode,
      });
      expect(swapped.code).toBe(AccountCode.VERIFY_CODE_INVALID);
      // The failed try spent nothing: the right codes still work.
      const done = await a.call("POST", "/v1/user/security/email/change", {
        email: "new@example.com",
        oldCode,
        newCode,
      });
      expect(done.code).toBe(Code.OK);
      const info = await a.call<{ userInfo: { email: string }; settings: { bindEmail: boolean } }>(
        "POST",
        "/v1/user/overview/userinfo",
      );
      expect(info.data.userInfo.email).toBe("new@example.com");
      await run.server.mail.next("old@example.com", (m) =>
        m.text.includes("bound e-mail address was changed"),
      );
      expect((await new Agent(run.server).login("new@example.com", "password-123")).code).toBe(Code.OK);
      expect((await new Agent(run.server).login("old@example.com", "password-123")).code).toBe(
        AccountCode.INVALID_CREDENTIALS,
      );
    });

    it("binds a phone, then unbinds the authenticator with both factors; the flags follow", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("flags@example.com", "password-123");
      let mails = run.server.mail.to("flags@example.com").length;
      await a.call("POST", "/v1/user/security/sendCode", { purpose: "changePhone" });
      const oldCode = await run.server.mail.code("flags@example.com", mails);
      await a.call("POST", "/v1/user/security/sendCode", {
        purpose: "changePhone",
        to: "new",
        areaCode: "44",
        mobile: "7700900555",
      });
      const newCode = await a.latestCode("+447700900555");
      const bound = await a.call("POST", "/v1/user/security/phone/change", {
        areaCode: "44",
        mobile: "7700900555",
        oldCode,
        newCode,
      });
      expect(bound.code).toBe(Code.OK);

      const setup = await a.call<{ secret: string }>("POST", "/v1/user/google/setup");
      await a.call("POST", "/v1/user/google/bind", {
        googleCode: totp(setup.data.secret, run.server.clock.now),
      });
      let info = await a.call<{ settings: Record<string, boolean> }>("POST", "/v1/user/overview/userinfo");
      expect(info.data.settings).toMatchObject({ bindEmail: true, bindPhone: true, bindGoogle: true });

      run.server.clock.now += 60_000;
      mails = run.server.mail.to("flags@example.com").length;
      await a.call("POST", "/v1/user/security/sendCode", { purpose: "unbindGoogle" });
      const verifyCode = await run.server.mail.code("flags@example.com", mails);
      const noTotp = await a.call("POST", "/v1/user/google/unbind", { verifyCode, googleCode: "000000" });
      expect(noTotp.code).toBe(AccountCode.GOOGLE_CODE_INVALID);
      run.server.clock.now += 30_000;
      await a.call("POST", "/v1/user/security/sendCode", { purpose: "unbindGoogle" });
      const verifyCode2 = await run.server.mail.code("flags@example.com", mails + 1);
      const unbound = await a.call("POST", "/v1/user/google/unbind", {
        verifyCode: verifyCode2,
        googleCode: totp(setup.data.secret, run.server.clock.now),
      });
      expect(unbound.code).toBe(Code.OK);
      info = await a.call<{ settings: Record<string, boolean> }>("POST", "/v1/user/overview/userinfo");
      expect(info.data.settings).toMatchObject({ bindGoogle: false, googleEnable: false, bindPhone: true });
      const again = await a.call("POST", "/v1/user/google/unbind", {
        verifyCode: "123456",
        googleCode: "123456",
      });
      expect(again.code).toBe(SecurityCode.NOT_BOUND);
    });

    it("sets openContract once the futures agreement is accepted", async () => {
      const a = new Agent(run.server);
      await a.registerEmail("fut@example.com", "password-123");
      const read = async () =>
        (await a.call<{ userInfo: { openContract: boolean } }>("POST", "/v1/user/overview/userinfo")).data
          .userInfo.openContract;
      expect(await read()).toBe(false);
      expect((await a.call("POST", "/v1/user/agreement/contract")).code).toBe(Code.OK);
      expect(await read()).toBe(true);
      const anon = new Agent(run.server);
      expect((await anon.call("POST", "/v1/user/agreement/contract")).code).toBe(Code.SESSION_INVALID);
    });
  });
}

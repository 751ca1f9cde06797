import {
  AccountCode,
  Code,
  QR_TOKEN_TTL_MS,
  type QrKeyIssued,
  QrLoginCode,
  type QrRequestInfo,
} from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { Agent, securityApp, type TestServer } from "../../test/security-agent.ts";

// Every poll is an encrypted request: allow for a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 });

const PWD = "password-123";
const UA_DESKTOP =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";

describe.each(reopenableDbTargets("qrlogin"))("QR login ($name)", (target) => {
  let server: TestServer;
  let cleanup: () => Promise<void>;
  let ipSeq = 0;

  beforeAll(async () => {
    const opened = await target.open();
    server = await securityApp({ db: opened.db() });
    cleanup = async () => {
      await server.app.close();
      await opened.cleanup();
    };
  });
  afterAll(() => cleanup());

  /** A browser at an address of its own (fresh per-address budgets). */
  function browser(): Agent {
    ipSeq += 1;
    const a = new Agent(server);
    a.remoteAddress = `203.0.${ipSeq}.7`;
    return a;
  }

  async function phone(email: string): Promise<{ agent: Agent; userId: string }> {
    const agent = browser();
    return { agent, userId: await agent.registerEmail(email, PWD) };
  }

  async function ask(desktop: Agent): Promise<string> {
    const res = await desktop.call<QrKeyIssued>(
      "POST",
      "/v1/user/public/getQrKey",
      {},
      {
        headers: { "user-agent": UA_DESKTOP },
      },
    );
    expect(res.code).toBe(Code.OK);
    expect(res.data.expiresAt).toBe(server.clock.now + QR_TOKEN_TTL_MS);
    return res.data.token;
  }

  const poll = (desktop: Agent, token: string) =>
    desktop.call<{ status: string; userInfo?: { userId: string } }>(
      "POST",
      "/v1/user/public/getQrKeyStatus",
      { token },
    );

  async function history(agent: Agent): Promise<(string | null)[]> {
    const res = await agent.call<{ items: { reason: string | null }[] }>(
      "GET",
      "/v1/user/security/loginHistory?pageSize=100",
    );
    return res.data.items.map((i) => i.reason);
  }

  it("goes waiting, scanned, confirmed and logs the asking browser in, once", async () => {
    const { agent: p, userId } = await phone(`qr-ok-${target.name}@example.com`);
    const desktop = browser();
    const token = await ask(desktop);
    expect(desktop.cookies.has("mer_device")).toBe(true);
    expect((await poll(desktop, token)).data.status).toBe("waiting");

    const scan = await p.call<QrRequestInfo>("POST", "/v1/user/qrLogin/scan", { token });
    expect(scan.code).toBe(Code.OK);
    expect(scan.data).toMatchObject({ browser: "Chrome 131", system: "Windows", sameNetwork: false });
    expect(scan.data.ip).toBe(`203.0.${ipSeq}.*`);
    expect((await poll(desktop, token)).data.status).toBe("scanned");

    expect((await p.call("POST", "/v1/user/qrLogin/confirm", { token })).code).toBe(Code.OK);
    const done = await poll(desktop, token);
    expect(done.code).toBe(Code.OK);
    expect(done.data).toMatchObject({ status: "confirmed", userInfo: { userId } });
    expect(desktop.cookies.has("mer_token")).toBe(true);
    await desktop.security.onLoginSuccess(done.data);
    // The session binds the device key the confirming poll proved: signed calls work.
    const me = await desktop.call<{ userInfo: { userId: string } }>("POST", "/v1/user/overview/userinfo");
    expect(me.data.userInfo.userId).toBe(userId);
    expect((await desktop.call("GET", "/v1/user/security/devices")).code).toBe(Code.OK);
    const session = await server.module.service.findSession(desktop.cookies.get("mer_token") ?? "");
    expect(session?.session.device_public_key).not.toBeNull();

    // Spent: neither a second poll nor a second confirmation gets anything.
    const again = await poll(desktop, token);
    expect([again.status, again.code]).toEqual([409, QrLoginCode.TOKEN_USED]);
    const twice = await p.call("POST", "/v1/user/qrLogin/confirm", { token });
    expect([twice.status, twice.code]).toEqual([409, QrLoginCode.TOKEN_USED]);
    expect(await history(p)).toContain("qr");
  });

  it("ends rejected when the phone says no, and nothing logs in", async () => {
    const { agent: p } = await phone(`qr-no-${target.name}@example.com`);
    const desktop = browser();
    const token = await ask(desktop);
    await p.call("POST", "/v1/user/qrLogin/scan", { token });
    expect((await p.call("POST", "/v1/user/qrLogin/reject", { token })).code).toBe(Code.OK);
    expect((await poll(desktop, token)).data.status).toBe("rejected");
    expect(desktop.cookies.has("mer_token")).toBe(false);
    const late = await p.call("POST", "/v1/user/qrLogin/confirm", { token });
    expect([late.status, late.code]).toEqual([409, QrLoginCode.TOKEN_USED]);
  });

  it("is never confirmed by the browser that asked", async () => {
    const { agent: same } = await phone(`qr-own-${target.name}@example.com`);
    const token = await ask(same);
    const own = await same.call("POST", "/v1/user/qrLogin/scan", { token });
    expect([own.status, own.code]).toEqual([403, QrLoginCode.OWN_REQUEST]);
    expect(await history(same)).toContain("qr");
    expect((await poll(same, token)).data.status).toBe("waiting");
  });

  it("dies with its 2 minutes; unknown tokens and other browsers' polls are refused", async () => {
    const { agent: p } = await phone(`qr-old-${target.name}@example.com`);
    const desktop = browser();
    const token = await ask(desktop);
    await p.call("POST", "/v1/user/qrLogin/scan", { token });
    server.clock.now += QR_TOKEN_TTL_MS + 1;
    const late = await p.call("POST", "/v1/user/qrLogin/confirm", { token });
    expect([late.status, late.code]).toEqual([410, QrLoginCode.TOKEN_EXPIRED]);
    expect((await poll(desktop, token)).data.status).toBe("expired");
    expect(desktop.cookies.has("mer_token")).toBe(false);

    const unknown = await p.call("POST", "/v1/user/qrLogin/scan", { token: "A".repeat(43) });
    expect([unknown.status, unknown.code]).toEqual([404, QrLoginCode.TOKEN_UNKNOWN]);
    // Someone who photographed the code polls from another browser: nothing to learn.
    const fresh = await ask(desktop);
    const thief = await poll(browser(), fresh);
    expect([thief.status, thief.code]).toEqual([404, QrLoginCode.TOKEN_UNKNOWN]);
    const bad = await p.call("POST", "/v1/user/qrLogin/scan", { token: "short" });
    expect([bad.status, bad.code]).toEqual([400, Code.VALIDATION_FAILED]);
  });

  it("counts bad tokens against the attempt limits and refuses a plaintext poll", async () => {
    const { agent: p } = await phone(`qr-limit-${target.name}@example.com`);
    const codes: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await p.call("POST", "/v1/user/qrLogin/confirm", { token: `${"B".repeat(42)}${i}` });
      codes.push(res.code);
    }
    expect(codes).toEqual([...Array(5).fill(QrLoginCode.TOKEN_UNKNOWN), AccountCode.LOGIN_THROTTLED]);

    const desktop = browser();
    const token = await ask(desktop);
    const plain = await desktop.call("POST", "/v1/user/public/getQrKeyStatus", { token }, { raw: true });
    expect(plain.code).toBe(AccountCode.DECRYPT_FAILED);
  });
});

import { AccountCode, Code } from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type AttemptStore, DbAttemptStore, RedisAttemptStore } from "../../platform/attempts/index.ts";
import type { PlatformDb } from "../../platform/db/internal.ts";
import { reopenableDbTargets } from "../../test/db-targets.ts";
import { testRedis } from "../../test/redis.ts";
import { Agent, type Answer, securityApp, type TestServer } from "../../test/security-agent.ts";
import { totp } from "./totp.ts";

/**
 * Attacks on the attempt limits over HTTP, fired 50 at a time: on SQLite (counters in the
 * database) and, with TEST_DATABASE_URL and TEST_REDIS_URL, on PostgreSQL with the
 * counters in Redis. "Checked" answers are the ones that say the secret was wrong; a
 * refusal before the check answers 429 (11002).
 */
// 50 encrypted logins or registrations per test: allow for a loaded 2-core machine.
vi.setConfig({ testTimeout: 60_000 });
const { prefix: redisPrefix, redis } = testRedis("acct-limits");
const withRedis = process.env.TEST_REDIS_URL !== undefined;
const targets = reopenableDbTargets("acctlimits").filter((t) => t.name === "sqlite" || withRedis);

const PWD = "password-123";
let ipSeq = 0;
/** A client address no other test used: each test starts with fresh per-address budgets. */
function freshIp(): string {
  ipSeq += 1;
  return `198.51.${Math.floor(ipSeq / 250)}.${(ipSeq % 250) + 1}`;
}

function agentAt(server: TestServer, ip: string): Agent {
  const a = new Agent(server);
  a.remoteAddress = ip;
  return a;
}

/** Six digits other than `right`. */
function wrongCodes(right: string, n: number): string[] {
  return Array.from({ length: n }, (_, i) => String((Number(right) + 1 + i) % 1_000_000).padStart(6, "0"));
}

/**
 * The server's attempt store, counting the attempts it grants per counter key, so a test
 * can wait for the moment a budget is held instead of guessing it from the send order.
 */
class GrantCountingStore implements AttemptStore {
  readonly granted = new Map<string, number>();
  private readonly inner: AttemptStore;
  constructor(inner: AttemptStore) {
    this.inner = inner;
  }
  get kind() {
    return this.inner.kind;
  }
  async take(...args: Parameters<AttemptStore["take"]>): Promise<number> {
    const wait = await this.inner.take(...args);
    if (wait === 0) this.granted.set(args[0], (this.granted.get(args[0]) ?? 0) + 1);
    return wait;
  }
  fail(...args: Parameters<AttemptStore["fail"]>) {
    return this.inner.fail(...args);
  }
  succeed(...args: Parameters<AttemptStore["succeed"]>) {
    return this.inner.succeed(...args);
  }
  blockedFor(...args: Parameters<AttemptStore["blockedFor"]>) {
    return this.inner.blockedFor(...args);
  }
}

function tally(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const a of answers) out[a.code] = (out[a.code] ?? 0) + 1;
  return out;
}

describe.each(targets)("attempt limits over HTTP ($name)", (target) => {
  let server: TestServer;
  let db: PlatformDb;
  let attempts: GrantCountingStore;
  let cleanup: () => Promise<void>;

  beforeAll(async () => {
    const opened = await target.open();
    db = opened.db();
    attempts = new GrantCountingStore(
      target.name === "postgres"
        ? new RedisAttemptStore(await redis(), `${redisPrefix}attempts:`)
        : new DbAttemptStore(db),
    );
    server = await securityApp({ db, attempts });
    cleanup = async () => {
      await server.app.close();
      await opened.cleanup();
    };
  });
  afterAll(() => cleanup());

  async function register(email: string): Promise<Agent> {
    const a = agentAt(server, freshIp());
    await a.registerEmail(email, PWD);
    return a;
  }

  it("checks at most 5 of 50 parallel wrong passwords, then refuses the right one", async () => {
    await register(`pwd-${target.name}@example.com`);
    // Each try from its own address: the per-account budget alone must hold.
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        agentAt(server, freshIp()).login(`pwd-${target.name}@example.com`, `wrong-password-${i}`),
      ),
    );
    const counts = tally(answers);
    expect(counts[AccountCode.INVALID_CREDENTIALS]).toBeLessThanOrEqual(5);
    expect(counts[AccountCode.INVALID_CREDENTIALS]).toBeGreaterThan(0);
    expect(counts[AccountCode.LOGIN_THROTTLED]).toBe(50 - (counts[AccountCode.INVALID_CREDENTIALS] ?? 0));
    expect(answers.every((a) => a.code !== AccountCode.LOGIN_THROTTLED || a.status === 429)).toBe(true);
    const right = await agentAt(server, freshIp()).login(`pwd-${target.name}@example.com`, PWD);
    expect(right).toMatchObject({ status: 429, code: AccountCode.LOGIN_THROTTLED });
    server.clock.now += 61_000;
    expect((await agentAt(server, freshIp()).login(`pwd-${target.name}@example.com`, PWD)).code).toBe(
      Code.OK,
    );
    // Back to real time: the client's login encryption is checked against it.
    server.clock.now = Date.now();
  });

  it("never logs in with the right password hidden among 50 parallel tries beyond the budget", async () => {
    const email = `mixed-${target.name}@example.com`;
    await register(email);
    const userId = await db.get<{ id: string }>("SELECT id FROM users WHERE email = ?", [email]);
    const accountKey = `pwd:user:${userId?.id}`;
    const ip = freshIp();
    const wrong = Array.from({ length: 49 }, (_, i) =>
      agentAt(server, ip).login(email, `wrong-password-${i}`),
    );
    // The right password goes once the wrong ones hold the account's whole budget (5
    // granted), pending or already failed. Sent any earlier it could be checked within the
    // budget and log in, which rightly resets the counter; that is not this attack.
    await vi.waitFor(() => expect(attempts.granted.get(accountKey) ?? 0).toBeGreaterThanOrEqual(5), {
      timeout: 50_000,
      interval: 20,
    });
    const answers = await Promise.all([...wrong, agentAt(server, ip).login(email, PWD)]);
    const checked = answers.filter((a) => a.code === AccountCode.INVALID_CREDENTIALS || a.code === Code.OK);
    expect(checked.length).toBeLessThanOrEqual(5);
    expect(answers.at(-1)?.code).toBe(AccountCode.LOGIN_THROTTLED);
  });

  for (const channel of ["email", "sms"] as const) {
    it(`checks at most 5 of 50 parallel wrong ${channel} codes, then the right code registers nothing`, async () => {
      const email = `code-${target.name}@example.com`;
      const mobile = `7700${String(900000 + ipSeq).slice(-6)}`;
      const recipient = channel === "email" ? email : `+44${mobile}`;
      const sender = agentAt(server, freshIp());
      const sent = await sender.call(
        "POST",
        "/v1/user/public/sendCode",
        channel === "email"
          ? { bizType: "register", email }
          : { bizType: "register", areaCode: "44", mobile },
      );
      expect(sent.code).toBe(Code.OK);
      const right = await sender.latestCode(recipient);
      const body = (code: string) =>
        channel === "email"
          ? { path: "/v1/user/register/email", body: { email, emailCode: code, pwd: PWD } }
          : {
              path: "/v1/user/register/mobile",
              body: { areaCode: "44", mobile, mobileCode: code, pwd: PWD },
            };
      const answers = await Promise.all(
        wrongCodes(right, 50).map((code) => {
          const req = body(code);
          return agentAt(server, freshIp()).call("POST", req.path, req.body);
        }),
      );
      const counts = tally(answers);
      expect(counts[AccountCode.VERIFY_CODE_INVALID]).toBeLessThanOrEqual(5);
      expect(counts[AccountCode.LOGIN_THROTTLED]).toBe(50 - (counts[AccountCode.VERIFY_CODE_INVALID] ?? 0));
      const row = await db.get<{ attempts: number }>(
        "SELECT attempts FROM verify_codes WHERE target = ? ORDER BY created_at DESC LIMIT 1",
        [recipient],
      );
      expect(Number(row?.attempts)).toBe(5);
      const late = body(right);
      const refused = await agentAt(server, freshIp()).call("POST", late.path, late.body);
      expect(refused).toMatchObject({ status: 429, code: AccountCode.LOGIN_THROTTLED });
      const users = await db.get<{ n: number }>(
        "SELECT COUNT(*) AS n FROM users WHERE email = ? OR phone_key = ?",
        [email, `+44${mobile}`],
      );
      expect(Number(users?.n)).toBe(0);
    });
  }

  async function withAuthenticator(email: string): Promise<{ owner: Agent; secret: string }> {
    const owner = await register(email);
    const setup = await owner.call<{ secret: string }>("POST", "/v1/user/google/setup");
    const bind = await owner.call("POST", "/v1/user/google/bind", {
      googleCode: totp(setup.data.secret, server.clock.now),
    });
    expect(bind.code).toBe(Code.OK);
    return { owner, secret: setup.data.secret };
  }

  it("checks at most 5 of 50 parallel wrong authenticator codes at login", async () => {
    const email = `totp-login-${target.name}@example.com`;
    const { secret } = await withAuthenticator(email);
    const step1 = await agentAt(server, freshIp()).login(email, PWD);
    const verifyToken = String(step1.data.verifyToken);
    // The bind used this time step: the next one is the login's right code.
    const at = server.clock.now + 30_000;
    server.clock.now = at;
    const right = totp(secret, at);
    const answers = await Promise.all(
      wrongCodes(right, 50).map((googleCode) =>
        agentAt(server, freshIp()).call("POST", "/v1/user/login/verify-login", { verifyToken, googleCode }),
      ),
    );
    const counts = tally(answers);
    expect(counts[AccountCode.GOOGLE_CODE_INVALID]).toBeLessThanOrEqual(5);
    expect(counts[AccountCode.LOGIN_THROTTLED]).toBe(50 - (counts[AccountCode.GOOGLE_CODE_INVALID] ?? 0));
    const late = await agentAt(server, freshIp()).call("POST", "/v1/user/login/verify-login", {
      verifyToken,
      googleCode: right,
    });
    expect(late).toMatchObject({ status: 429, code: AccountCode.LOGIN_THROTTLED });
    server.clock.now = Date.now();
  });

  it("checks at most 5 of 50 parallel wrong authenticator codes to turn it off", async () => {
    // A stolen session guessing its way past the authenticator.
    const { owner, secret } = await withAuthenticator(`totp-off-${target.name}@example.com`);
    const at = server.clock.now + 30_000;
    server.clock.now = at;
    const right = totp(secret, at);
    const toggles = await Promise.all(
      wrongCodes(right, 50).map((googleCode) =>
        owner.call("POST", "/v1/user/google/enable", { googleCode, enable: false }),
      ),
    );
    const counts = tally(toggles);
    expect(counts[AccountCode.GOOGLE_CODE_INVALID]).toBeLessThanOrEqual(5);
    expect(counts[AccountCode.LOGIN_THROTTLED]).toBe(50 - (counts[AccountCode.GOOGLE_CODE_INVALID] ?? 0));
    const off = await owner.call("POST", "/v1/user/google/enable", { googleCode: right, enable: false });
    expect(off).toMatchObject({ status: 429, code: AccountCode.LOGIN_THROTTLED });
    server.clock.now = Date.now();
  });

  it("sends at most 10 codes from one address to 40 recipients, and 5 to one recipient", async () => {
    const ip = freshIp();
    const many = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        agentAt(server, ip).call("POST", "/v1/user/public/sendCode", {
          bizType: "register",
          email: `spray-${target.name}-${i}@example.com`,
        }),
      ),
    );
    expect(tally(many)).toEqual({ [Code.OK]: 10, [AccountCode.LOGIN_THROTTLED]: 30 });
    // What actually went out, as the SMTP server received it.
    const sprayed = server.mail.messages.filter((m) =>
      m.to.some((to) => to.startsWith(`spray-${target.name}-`)),
    );
    expect(sprayed).toHaveLength(10);

    const victim = `flood-${target.name}@example.com`;
    const flood = await Promise.all(
      Array.from({ length: 20 }, () =>
        agentAt(server, freshIp()).call("POST", "/v1/user/public/sendCode", {
          bizType: "register",
          email: victim,
        }),
      ),
    );
    expect(tally(flood)).toEqual({ [Code.OK]: 5, [AccountCode.LOGIN_THROTTLED]: 15 });
    expect(server.mail.to(victim)).toHaveLength(5);
  });
});

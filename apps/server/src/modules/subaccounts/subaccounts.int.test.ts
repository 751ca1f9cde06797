import {
  AccountCode,
  Code,
  MAX_SUB_ACCOUNTS,
  type PaperBalance,
  type PaperFees,
  type PlaceOrderResult,
  SESSION_COOKIE,
  SecurityCode,
  type SubAccountView,
  SubCode,
  type SubListResult,
  SubPath,
  type SubTransferView,
  type UserInfoResponse,
  type VipDetail,
  VipPath,
} from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PlatformDb } from "../../platform/db/index.ts";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import { MailSink } from "../../test/mail-sink.ts";
import { paperCall as call, makerQuote, type PaperTestApp, paperTestApp } from "../../test/paper.ts";
import { Agent, type TestServer } from "../../test/security-agent.ts";
import { totp } from "../accounts/index.ts";
import { LocalVenue } from "../paper/index.ts";

const targets = reopenableDbTargets("subaccts");
const PAPER = { paptrading: "1" };

async function start(db: PlatformDb): Promise<PaperTestApp> {
  return paperTestApp(db, {
    venue: new LocalVenue({ ladder: false }),
    core: { futures: { testMarks: true }, margin: { testPrices: true } },
  });
}

describe.each(targets)("sub-accounts and VIP on $name", (target) => {
  let env: Awaited<ReturnType<DbTarget["open"]>>;
  let run: PaperTestApp;
  beforeAll(async () => {
    env = await target.open();
    run = await start(env.db());
  });
  afterAll(async () => {
    await run.app.close();
    await run.db.close();
    await env.cleanup();
  });

  const get = <T>(cookie: string, url: string) => call<T>(run.app, cookie, "GET", url);
  const post = <T>(cookie: string, url: string, body: unknown) => call<T>(run.app, cookie, "POST", url, body);
  const usdt = async (cookie: string) =>
    (await get<PaperBalance[]>(cookie, "/v1/paper/balances")).data.find((b) => b.asset === "USDT")?.available;
  const wallet = (v: SubAccountView | undefined, name: string, asset: string) =>
    v?.wallets[name]?.find((b) => b.asset === asset)?.amount;
  let seq = 0;
  const create = async (cookie: string, label = "Desk") => {
    seq += 1;
    const r = await post<SubAccountView>(cookie, SubPath.CREATE, {
      name: `desk${seq}${Date.now().toString(36)}`.slice(0, 20),
      label,
    });
    expect(r.code).toBe(Code.OK);
    return r.data;
  };

  /** A master and an Agent (the real client security code: encryption, signing) logged in as it. */
  async function agentMaster(): Promise<Agent> {
    seq += 1;
    const email = `master-${Date.now()}-${seq}@example.com`;
    await run.accounts.createUser({
      email,
      areaCode: null,
      mobile: null,
      phoneKey: null,
      password: "password-123",
      role: "user",
    });
    const server: TestServer = {
      app: run.app,
      module: run.app.accounts,
      clock: {
        get now() {
          return Date.now();
        },
      },
      reports: [],
      // No SMTP here: the new-device login code is read from the server's log.
      mail: new MailSink(),
      outbox: run.outbox,
      sms: [],
    };
    const agent = new Agent(server);
    const login = await agent.login(email, "password-123");
    expect(login.code).toBe(Code.OK);
    return agent;
  }

  it("creates a sub (virtual e-mail, label), empty; lists it; refuses bad input with 10422", async () => {
    const master = await run.login();
    const sub = await create(master, "Market making");
    expect(sub.email).toMatch(/^desk\w+@sub\.meridian\.local$/);
    expect(sub).toMatchObject({ label: "Market making", frozen: false, totalUsdt: "0.00000000" });
    expect(sub.wallets.SPOT).toEqual([]);
    const list = await get<SubListResult>(master, SubPath.LIST);
    expect(list.data.max).toBe(MAX_SUB_ACCOUNTS);
    expect(list.data.subs.map((s) => s.userId)).toEqual([sub.userId]);
    const bad = await post(master, SubPath.CREATE, { name: "x", label: "<b>" });
    expect(bad.code).toBe(Code.VALIDATION_FAILED);
    const taken = await post(master, SubPath.CREATE, { name: sub.email.split("@")[0], label: "again" });
    expect(taken.code).toBe(SubCode.NAME_TAKEN);
    // another master sees nothing of it
    const other = await run.login();
    expect((await get<SubListResult>(other, SubPath.LIST)).data.subs).toEqual([]);
    const steal = await post(other, SubPath.TRANSFER, {
      subUserId: sub.userId,
      direction: "FROM_SUB",
      wallet: "SPOT",
      asset: "USDT",
      amount: "1",
    });
    expect(steal.code).toBe(SubCode.NOT_FOUND);
  });

  it("asks a master with an authenticator for a step-up at most 5 minutes old before a transfer", async () => {
    const master = await run.login();
    const sub = await create(master);
    const token = master.slice(`${SESSION_COOKIE}=`.length);
    const userId = await run.accounts.sessionUserId(token);
    const user = userId === undefined ? undefined : await run.accounts.repo.userById(userId);
    if (user === undefined) throw new Error("no user");
    const { secret } = await run.accounts.googleSetup(user);
    await run.accounts.googleBind(user.id, totp(secret, Date.now()), "127.0.0.1");
    const body = { subUserId: sub.userId, direction: "TO_SUB", wallet: "SPOT", asset: "USDT", amount: "10" };
    const refused = await post(master, SubPath.TRANSFER, body);
    expect(refused.code).toBe(SecurityCode.STEP_UP_REQUIRED);
    expect(await usdt(master)).toBe("50000.00000000");
    const wrong = await post(master, "/v1/user/security/stepUp", { googleCode: "000000" });
    expect(wrong.code).toBe(AccountCode.GOOGLE_CODE_INVALID);
    expect((await post(master, SubPath.TRANSFER, body)).code).toBe(SecurityCode.STEP_UP_REQUIRED);
    // The step after the one the bind used (each works once).
    const proved = await post(master, "/v1/user/security/stepUp", {
      googleCode: totp(secret, Date.now() + 30_000),
    });
    expect(proved.code).toBe(Code.OK);
    expect((await post(master, SubPath.TRANSFER, body)).code).toBe(Code.OK);
    expect(await usdt(master)).toBe("49990.00000000");
  });

  it("transfers both ways in spot, futures and margin wallets as sub-transfer ledger entries", async () => {
    makerQuote(run.venue, "BTCUSDT", "SELL", "97050.00", "2");
    makerQuote(run.venue, "BTCUSDT", "BUY", "96950.00", "2");
    const master = await run.login();
    const sub = await create(master);
    const t = (body: object) =>
      post<SubTransferView>(master, SubPath.TRANSFER, { subUserId: sub.userId, ...body });

    const s1 = await t({ direction: "TO_SUB", wallet: "SPOT", asset: "USDT", amount: "1000" });
    expect(s1.code).toBe(Code.OK);
    expect(s1.data).toMatchObject({
      direction: "TO_SUB",
      wallet: "SPOT",
      asset: "USDT",
      amount: "1000.00000000",
    });
    expect(await usdt(master)).toBe("49000.00000000");
    const s2 = await t({ direction: "FROM_SUB", wallet: "SPOT", asset: "USDT", amount: "250.5" });
    expect(s2.code).toBe(Code.OK);
    expect(await usdt(master)).toBe("49250.50000000");
    const over = await t({ direction: "FROM_SUB", wallet: "SPOT", asset: "USDT", amount: "750" });
    expect(over.code).toBe(SubCode.TRANSFER_EXCEEDS);
    expect(over.data).toMatchObject({ max: "749.50000000" });

    // futures: master spot -> futures, then futures -> the sub's futures and part back
    expect(
      (
        await post(master, "/v1/paper/asset/transfer", {
          from: "SPOT",
          to: "FUTURES",
          asset: "USDT",
          amount: "500",
        })
      ).code,
    ).toBe(Code.OK);
    expect((await t({ direction: "TO_SUB", wallet: "FUTURES", asset: "USDT", amount: "300" })).code).toBe(
      Code.OK,
    );
    expect((await t({ direction: "FROM_SUB", wallet: "FUTURES", asset: "USDT", amount: "100" })).code).toBe(
      Code.OK,
    );
    expect((await t({ direction: "TO_SUB", wallet: "FUTURES", asset: "BNB", amount: "1" })).code).toBe(
      SubCode.TRANSFER_INVALID,
    );
    const overFut = await t({ direction: "TO_SUB", wallet: "FUTURES", asset: "USDT", amount: "301" });
    expect(overFut.code).toBe(SubCode.TRANSFER_EXCEEDS);

    // cross margin, and the isolated BTCUSDT account
    expect(
      (
        await post(master, "/v1/paper/asset/transfer", {
          from: "SPOT",
          to: "CROSS_MARGIN",
          asset: "USDT",
          amount: "400",
        })
      ).code,
    ).toBe(Code.OK);
    expect(
      (await t({ direction: "TO_SUB", wallet: "CROSS_MARGIN", asset: "USDT", amount: "150" })).code,
    ).toBe(Code.OK);
    expect(
      (await t({ direction: "FROM_SUB", wallet: "CROSS_MARGIN", asset: "USDT", amount: "50" })).code,
    ).toBe(Code.OK);
    expect(
      (
        await post(master, "/v1/paper/asset/transfer", {
          from: "SPOT",
          to: "ISOLATED_MARGIN",
          symbol: "BTCUSDT",
          asset: "USDT",
          amount: "100",
        })
      ).code,
    ).toBe(Code.OK);
    expect(
      (
        await t({
          direction: "TO_SUB",
          wallet: "ISOLATED_MARGIN",
          symbol: "BTCUSDT",
          asset: "USDT",
          amount: "60",
        })
      ).code,
    ).toBe(Code.OK);
    expect(
      (
        await t({
          direction: "TO_SUB",
          wallet: "ISOLATED_MARGIN",
          symbol: "BTCUSDT",
          asset: "ETH",
          amount: "1",
        })
      ).code,
    ).toBe(SubCode.TRANSFER_INVALID);

    const view = (await get<SubListResult>(master, SubPath.LIST)).data.subs[0];
    expect(wallet(view, "SPOT", "USDT")).toBe("749.50000000");
    expect(wallet(view, "FUTURES", "USDT")).toBe("200.00000000");
    expect(wallet(view, "CROSS_MARGIN", "USDT")).toBe("100.00000000");
    expect(wallet(view, "ISOLATED_MARGIN:BTCUSDT", "USDT")).toBe("60.00000000");
    expect(view?.totalUsdt).toBe("1109.50000000");

    const history = await get<SubTransferView[]>(master, `${SubPath.TRANSFERS}?subUserId=${sub.userId}`);
    expect(history.data.map((h) => `${h.direction} ${h.wallet} ${h.amount}`)).toEqual([
      "TO_SUB ISOLATED_MARGIN 60.00000000",
      "FROM_SUB CROSS_MARGIN 50.00000000",
      "TO_SUB CROSS_MARGIN 150.00000000",
      "FROM_SUB FUTURES 100.00000000",
      "TO_SUB FUTURES 300.00000000",
      "FROM_SUB SPOT 250.50000000",
      "TO_SUB SPOT 1000.00000000",
    ]);
    // each is one journal entry of kind sub-transfer with two postings
    await run.ledger.flush();
    const entries = await run.db.all<{ n: number | string }>(
      "SELECT COUNT(*) AS n FROM paper_postings pp JOIN paper_journal j ON j.id = pp.entry_id WHERE j.kind = 'sub-transfer'",
    );
    expect(Number(entries[0]?.n)).toBeGreaterThanOrEqual(14);
    const audit = await run.ledger.audit();
    expect(audit.replayEqualsBalances).toBe(true);
    for (const sum of Object.values(audit.assetSums)) expect(sum).toBe("0");
  });

  it("moves BTC between a master's and a sub's coin-M wallets, both ways, within what the source spares", async () => {
    const master = await run.login();
    const sub = await create(master);
    const t = (body: object) =>
      post<SubTransferView>(master, SubPath.TRANSFER, { subUserId: sub.userId, ...body });
    expect(
      (
        await post(master, "/v1/paper/asset/transfer", {
          from: "SPOT",
          to: "FUTURES",
          asset: "BTC",
          amount: "0.3",
        })
      ).code,
    ).toBe(Code.OK);
    const toSub = await t({
      direction: "TO_SUB",
      wallet: "FUTURES",
      asset: "BTC",
      amount: "0.2",
      clientTransferId: "cm-1",
    });
    expect(toSub.code).toBe(Code.OK);
    expect(toSub.data).toMatchObject({
      direction: "TO_SUB",
      wallet: "FUTURES",
      asset: "BTC",
      amount: "0.20000000",
    });
    // Sent again with its id: the first transfer, nothing moved twice.
    const again = await t({
      direction: "TO_SUB",
      wallet: "FUTURES",
      asset: "BTC",
      amount: "0.2",
      clientTransferId: "cm-1",
    });
    expect(again.data.id).toBe(toSub.data.id);
    expect((await t({ direction: "FROM_SUB", wallet: "FUTURES", asset: "BTC", amount: "0.05" })).code).toBe(
      Code.OK,
    );
    const over = await t({ direction: "FROM_SUB", wallet: "FUTURES", asset: "BTC", amount: "0.15000001" });
    expect(over.code).toBe(SubCode.TRANSFER_EXCEEDS);
    expect(over.data).toMatchObject({ max: "0.15000000" });
    const masterOver = await t({ direction: "TO_SUB", wallet: "FUTURES", asset: "BTC", amount: "0.16" });
    expect(masterOver.code).toBe(SubCode.TRANSFER_EXCEEDS);
    const view = (await get<SubListResult>(master, SubPath.LIST)).data.subs.find(
      (v) => v.userId === sub.userId,
    );
    expect(wallet(view, "FUTURES", "BTC")).toBe("0.15000000");
    const mine = await get<{ wallet: string; marginCoin: string }>(
      master,
      "/v1/paper/futures/account?marginCoin=BTC",
    );
    expect(mine.data).toMatchObject({ marginCoin: "BTC", wallet: "0.15000000" });
    const audit = await run.ledger.audit();
    expect(audit.replayEqualsBalances).toBe(true);
    for (const sum of Object.values(audit.assetSums)) expect(sum).toBe("0");
  });

  it("switches into a sub over the encrypted path, trades there, and back; a sub cannot make subs", async () => {
    const agent = await agentMaster();
    const info = async () =>
      (await agent.call<UserInfoResponse>("POST", "/v1/user/overview/userinfo", {})).data.userInfo;
    const masterInfo = await info();
    expect(masterInfo).toMatchObject({ subAccount: false, childFlag: false });
    const made = await agent.call<SubAccountView>("POST", SubPath.CREATE, {
      name: `sw${Date.now().toString(36)}`,
      label: "Bot",
    });
    expect(made.code).toBe(Code.OK);
    const subId = made.data.userId;
    expect(
      (
        await agent.call("POST", SubPath.TRANSFER, {
          subUserId: subId,
          direction: "TO_SUB",
          wallet: "SPOT",
          asset: "USDT",
          amount: "2000",
        })
      ).code,
    ).toBe(Code.OK);

    // a plain body is refused: the switch path only takes the ciphertext
    const plain = await agent.call("POST", SubPath.SWITCH, { userId: subId }, { raw: true });
    expect(plain.code).not.toBe(Code.OK);

    const sw = await agent.call<{ userInfo: { userId: string } }>("POST", SubPath.SWITCH, { userId: subId });
    expect(sw.code).toBe(Code.OK);
    expect(sw.data.userInfo.userId).toBe(subId);
    await agent.security.onLoginSuccess(sw.data);
    expect(await info()).toMatchObject({ userId: subId, subAccount: true, childFlag: true });
    expect((await agent.call("POST", SubPath.CREATE, { name: "nested1", label: "x" })).code).toBe(
      SubCode.NOT_MASTER,
    );

    makerQuote(run.venue, "BTCUSDT", "SELL", "97050.00", "2");
    const order = await agent.call<PlaceOrderResult>(
      "POST",
      "/v1/paper/orders",
      { symbol: "BTCUSDT", side: "BUY", type: "MARKET", quantity: "0.01" },
      { headers: PAPER },
    );
    expect(order.code).toBe(Code.OK);
    expect(order.data.fills.length).toBeGreaterThan(0);

    const back = await agent.call<{ userInfo: { userId: string } }>("POST", SubPath.SWITCH_BACK, {});
    expect(back.code).toBe(Code.OK);
    expect(back.data.userInfo.userId).toBe(masterInfo.userId);
    await agent.security.onLoginSuccess(back.data);
    expect(await info()).toMatchObject({ userId: masterInfo.userId, subAccount: false });
    // a master's session cannot "switch back"
    expect((await agent.call("POST", SubPath.SWITCH_BACK, {})).code).toBe(SubCode.NOT_SWITCHED);

    const list = await agent.call<SubListResult>("GET", SubPath.LIST);
    const view = list.data.subs.find((s) => s.userId === subId);
    expect(wallet(view, "SPOT", "BTC")).toBe("0.01000000");
    expect(Number(wallet(view, "SPOT", "USDT"))).toBeLessThan(2000);

    // frozen: no switching in
    expect((await agent.call("POST", SubPath.FREEZE, { subUserId: subId, frozen: true })).code).toBe(Code.OK);
    expect((await agent.call("POST", SubPath.SWITCH, { userId: subId })).code).toBe(SubCode.FROZEN);
    expect((await agent.call("POST", SubPath.FREEZE, { subUserId: subId, frozen: false })).code).toBe(
      Code.OK,
    );
  });

  it(`stops at ${MAX_SUB_ACCOUNTS} subs`, async () => {
    const master = await run.login();
    for (let i = 0; i < MAX_SUB_ACCOUNTS; i++) await create(master);
    const r = await post(master, SubPath.CREATE, {
      name: `last${Date.now().toString(36)}`,
      label: "one more",
    });
    expect(r.code).toBe(SubCode.LIMIT_REACHED);
  });

  it("VIP: volume moves the level when the job runs (admin trigger), and the fee follows", async () => {
    const trader = await run.login();
    const admin = await run.login("admin");
    expect((await get<PaperFees>(trader, "/v1/paper/fees")).data.current.level).toBe(0);
    const before = await get<VipDetail>(trader, VipPath.DETAIL);
    expect(before.data).toMatchObject({ level: 0, volume30d: "0.00000000", next: { level: 1 } });
    // five rounds of 4.5 ETH sold and bought back at 120,000: 5,400,000 USDT of volume
    // (tier 2 needs 5,000,000); only the resting quotes of this test sit at that price
    const order = (side: "BUY" | "SELL") =>
      post<PlaceOrderResult>(trader, "/v1/paper/orders", {
        symbol: "ETHUSDT",
        side,
        type: "MARKET",
        quantity: "4.5",
      });
    for (let i = 0; i < 5; i++) {
      makerQuote(run.venue, "ETHUSDT", "BUY", "120000.00", "4.5");
      const sell = await order("SELL");
      expect(sell.code).toBe(Code.OK);
      expect(sell.data.fills.map((f) => [f.price, f.fee])).toEqual([["120000.00", "540.00000000"]]);
      makerQuote(run.venue, "ETHUSDT", "SELL", "120000.00", "4.5");
      const buy = await order("BUY");
      expect(buy.code).toBe(Code.OK);
      expect(buy.data.fills.map((f) => [f.price, f.fee])).toEqual([["120000.00", "540.00000000"]]);
    }
    const live = await get<VipDetail>(trader, VipPath.DETAIL);
    expect(live.data.level).toBe(0);
    expect(live.data.volume30d).toBe("5400000.00000000");

    expect((await post(trader, VipPath.RECOMPUTE, {})).code).toBe(Code.FORBIDDEN);
    const job = await post<{ accounts: number; changed: number }>(admin, VipPath.RECOMPUTE, {});
    expect(job.code).toBe(Code.OK);
    expect(job.data.changed).toBeGreaterThanOrEqual(1);

    const after = await get<VipDetail>(trader, VipPath.DETAIL);
    expect(after.data).toMatchObject({
      level: 2,
      takerRate: "0.09",
      next: { level: 3, volumeNeeded: "14600000" },
    });
    expect(after.data.computedAt).not.toBeNull();
    const info = await post<UserInfoResponse>(trader, "/v1/user/overview/userinfo", {});
    expect(info.data.userInfo).toMatchObject({ vipLevel: 2, showUserVip: true });
    expect((await get<PaperFees>(trader, "/v1/paper/fees")).data.current.level).toBe(2);
    // the next order pays the tier-2 taker rate: 0.09 % of 12,000 (0.1 % before)
    makerQuote(run.venue, "ETHUSDT", "SELL", "120000.00", "0.1");
    const buy = await post<PlaceOrderResult>(trader, "/v1/paper/orders", {
      symbol: "ETHUSDT",
      side: "BUY",
      type: "MARKET",
      quantity: "0.1",
    });
    expect(buy.code).toBe(Code.OK);
    expect(buy.data.fills.map((f) => f.fee)).toEqual(["10.80000000"]);
    // a fresh account's free paper grant does not count as balance: it stays VIP 0
    const fresh = await run.login();
    await get(fresh, "/v1/paper/balances");
    await post(admin, VipPath.RECOMPUTE, {});
    expect((await get<VipDetail>(fresh, VipPath.DETAIL)).data.level).toBe(0);
  });

  it("VIP: coins borrowed on margin are no balance (margin's debts are subtracted)", async () => {
    const trader = await run.login();
    const balance = async () => (await get<VipDetail>(trader, VipPath.DETAIL)).data.balance;
    // the free grant is not balance: it starts at zero and stays there after a transfer
    expect(await balance()).toBe("0.00000000");
    const moved = await post(trader, "/v1/paper/asset/transfer", {
      from: "SPOT",
      to: "CROSS_MARGIN",
      asset: "USDT",
      amount: "3000",
    });
    expect(moved.code).toBe(Code.OK);
    expect(await balance()).toBe("0.00000000");
    // 1,000 USDT borrowed lands in the margin wallet and is owed: the two cancel out
    const borrowed = await post(trader, "/v1/paper/margin/borrow", {
      mode: "cross",
      asset: "USDT",
      amount: "1000",
    });
    expect(borrowed.code).toBe(Code.OK);
    expect(await balance()).toBe("0.00000000");
  });
});

import { Code, type SecurityReportPage } from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminTestApp, adminTestApp } from "../../test/accounts.ts";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";

const CHROME =
  "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const DAY = 86_400_000;

describe.each(reopenableDbTargets("secreport"))("security reports admin list ($name)", (target: DbTarget) => {
  let t: AdminTestApp;
  let cleanup: () => Promise<void>;
  let admin: string;

  const report = (event: string, ua = CHROME) =>
    t.app.inject({
      method: "POST",
      url: "/v1/buried/log/cspSecurity",
      headers: { ...t.headers(), "user-agent": ua, "content-type": "application/json" },
      payload: JSON.stringify({
        bizType: "gateway",
        data: { event, reason: `why ${event}` },
        timestamp: 1,
        page: "/login",
      }),
    });
  const list = async (query: string, cookie = admin) => {
    const res = await t.app.inject({
      method: "GET",
      url: `/v1/admin/security-reports?${query}`,
      headers: t.headers(cookie),
    });
    return {
      status: res.statusCode,
      body: res.json() as { code: string; msg: string; data: SecurityReportPage },
    };
  };

  beforeAll(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    t = await adminTestApp(opened.db(), []);
    admin = await t.login("admin");
    for (const e of [
      "loginEncryptFailed",
      "initFailed",
      "loginEncryptFailed",
      "signInvalidKeys",
      "loginEncryptFailed",
    ])
      expect((await report(e)).json()).toMatchObject({ code: Code.OK });
    expect((await report("initFailed", "")).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.app.close();
    await cleanup?.();
  });

  it("refuses anonymous visitors and non-administrators with the envelope codes", async () => {
    const anonymous = await t.app.inject({
      method: "GET",
      url: "/v1/admin/security-reports",
      headers: t.headers(),
    });
    expect(anonymous.json()).toMatchObject({ code: Code.SESSION_INVALID, data: null });
    const user = await list("", await t.login("user"));
    expect(user.status).toBe(403);
    expect(user.body).toMatchObject({ code: Code.FORBIDDEN, data: null });
  });

  it("lists newest first with the user agent summary and the counts per event", async () => {
    const { status, body } = await list("");
    expect(status).toBe(200);
    expect(body.code).toBe(Code.OK);
    expect(body.data.total).toBe(6);
    expect(body.data.items).toHaveLength(6);
    const times = body.data.items.map((i) => i.createdAt);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    const withUa = body.data.items.find((i) => i.userAgent !== "");
    expect(withUa).toMatchObject({
      bizType: "gateway",
      page: "/login",
      userAgentSummary: "Chrome 131 on Windows",
    });
    expect(withUa?.reason).toMatch(/^why /);
    expect(body.data.items.some((i) => i.userAgent === "" && i.userAgentSummary === "")).toBe(true);
    expect(body.data.counts).toEqual([
      { event: "loginEncryptFailed", count: 3 },
      { event: "initFailed", count: 2 },
      { event: "signInvalidKeys", count: 1 },
    ]);
  });

  it("filters by event and date, pages without overlap, and keeps counts over the dates", async () => {
    const only = await list("event=loginEncryptFailed");
    expect(only.body.data.total).toBe(3);
    expect(only.body.data.items.every((i) => i.event === "loginEncryptFailed")).toBe(true);
    expect(only.body.data.counts).toHaveLength(3);
    const p1 = await list("pageSize=4&page=1");
    const p2 = await list("pageSize=4&page=2");
    expect(p1.body.data.items).toHaveLength(4);
    expect(p2.body.data.items).toHaveLength(2);
    const ids = new Set([...p1.body.data.items, ...p2.body.data.items].map((i) => i.id));
    expect(ids.size).toBe(6);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - DAY).toISOString().slice(0, 10);
    expect((await list(`from=${today}&to=${today}`)).body.data.total).toBe(6);
    const past = await list(`from=${yesterday}&to=${yesterday}`);
    expect(past.body.data).toMatchObject({ total: 0, items: [], counts: [] });
  });

  it("answers bad filters with 10422 naming the field, never a 500", async () => {
    for (const [query, field] of [
      ["from=22-11-2026", "from"],
      ["pageSize=1000", "pageSize"],
      ["page=0", "page"],
      ["from=2026-11-22&to=2026-11-01", "from"],
    ] as const) {
      const { status, body } = await list(query);
      expect(status, query).toBe(400);
      expect(body.code, query).toBe(Code.VALIDATION_FAILED);
      expect(JSON.stringify(body.data), query).toContain(field);
    }
  });
});

import { Code, type PageMetaResult, type PageMetaRow } from "@meridian/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AdminTestApp, adminTestApp } from "../../test/accounts.ts";
import { type DbTarget, reopenableDbTargets } from "../../test/db-targets.ts";
import { routes as seoRoutes } from "./routes.ts";
import { pageMetaSeed } from "./seed.ts";

interface Listing {
  rows: PageMetaRow[];
  pageKeys: string[];
  locales: string[];
}

describe.each(reopenableDbTargets("pagemeta"))("page metadata editor ($name)", (target: DbTarget) => {
  let t: AdminTestApp;
  let cleanup: () => Promise<void>;
  let admin: string;

  const call = async (method: "GET" | "PUT" | "DELETE", url: string, cookie = admin, body?: unknown) => {
    const res = await t.app.inject({
      method,
      url,
      headers: {
        ...t.headers(cookie),
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    return { status: res.statusCode, body: res.json() as { code: string; msg: string; data: unknown } };
  };
  const publicMeta = async (locale: string, key: string) => {
    const res = await t.app.inject({
      method: "POST",
      url: "/v1/mix/public/getTdkMltQueryList",
      headers: { "content-type": "application/json" },
      payload: JSON.stringify({ locale, pageKeys: [key] }),
    });
    return (res.json() as { data: PageMetaResult }).data.list[0];
  };
  const row = {
    pageKey: "airdrops.home",
    locale: "ja",
    title: "エアドロップ",
    description: "説明",
    keywords: "a, b",
  };

  beforeAll(async () => {
    const opened = await target.open();
    cleanup = opened.cleanup;
    const db = opened.db();
    t = await adminTestApp(db, [seoRoutes]);
    await pageMetaSeed.seed(db, { log: t.app.log });
    admin = await t.login("admin");
  });
  afterAll(async () => {
    await t?.app.close();
    await cleanup?.();
  });

  it("is for administrators only: 10403 for a user, session code for nobody, nothing written", async () => {
    const user = await t.login("user");
    const list = await call("GET", "/v1/admin/page-meta", user);
    expect(list.status).toBe(403);
    expect(list.body).toMatchObject({ code: Code.FORBIDDEN, data: null });
    expect((await call("PUT", "/v1/admin/page-meta", user, row)).body.code).toBe(Code.FORBIDDEN);
    expect(
      (await call("DELETE", "/v1/admin/page-meta?pageKey=airdrops.home&locale=en", user)).body.code,
    ).toBe(Code.FORBIDDEN);
    const anonymous = await t.app.inject({ method: "GET", url: "/v1/admin/page-meta", headers: t.headers() });
    expect(anonymous.json()).toMatchObject({ code: Code.SESSION_INVALID });
    expect((await publicMeta("ja", "airdrops.home"))?.locale).toBe("en");
  });

  it("lists the seeded rows, English first per page, with the locales a row may use", async () => {
    const { body } = await call("GET", "/v1/admin/page-meta");
    const data = body.data as Listing;
    expect(data.pageKeys).toEqual(["airdrops.detail", "airdrops.home", "airdrops.list"]);
    expect(data.rows.map((r) => `${r.pageKey}/${r.locale}`)).toEqual([
      "airdrops.detail/en",
      "airdrops.home/en",
      "airdrops.list/en",
    ]);
    expect(data.locales).toContain("zh-CN");
    expect(data.locales).toContain("ar");
  });

  it("creates and edits a row per page and locale, cleaned, and the public query serves it", async () => {
    const created = await call("PUT", "/v1/admin/page-meta", admin, {
      ...row,
      title: "  エアドロップ\n  一覧 ",
    });
    expect(created.body.code).toBe(Code.OK);
    expect(created.body.data).toMatchObject({
      pageKey: "airdrops.home",
      locale: "ja",
      title: "エアドロップ 一覧",
    });
    expect(await publicMeta("ja", "airdrops.home")).toMatchObject({
      locale: "ja",
      title: "エアドロップ 一覧",
    });
    const edited = await call("PUT", "/v1/admin/page-meta", admin, { ...row, title: "新しいタイトル" });
    expect(edited.body.code).toBe(Code.OK);
    expect(await publicMeta("ja", "airdrops.home")).toMatchObject({
      title: "新しいタイトル",
      keywords: "a, b",
    });
    // English untouched.
    expect((await publicMeta("en", "airdrops.home"))?.title).toContain("Crypto Airdrops");
    const deleted = await call("DELETE", "/v1/admin/page-meta?pageKey=airdrops.home&locale=ja");
    expect(deleted.body.code).toBe(Code.OK);
    expect((await publicMeta("ja", "airdrops.home"))?.locale).toBe("en");
    expect((await call("DELETE", "/v1/admin/page-meta?pageKey=airdrops.home&locale=ja")).body.code).toBe(
      Code.NOT_FOUND,
    );
  });

  it("refuses bad rows with 10422 naming the field, and stores nothing", async () => {
    for (const [patch, field] of [
      [{ title: "<script>alert(1)</script>" }, "title"],
      [{ description: "   " }, "description"],
      [{ locale: "xx" }, "locale"],
      [{ locale: "zh-cn" }, "locale"],
      [{ pageKey: "Airdrops Home" }, "pageKey"],
      [{ keywords: "k\u0000w" }, "keywords"],
      [{ title: "t".repeat(121) }, "title"],
    ] as const) {
      const res = await call("PUT", "/v1/admin/page-meta", admin, { ...row, ...patch });
      expect(res.status, field).toBe(400);
      expect(res.body.code, field).toBe(Code.VALIDATION_FAILED);
      expect(JSON.stringify(res.body.data), field).toContain(field);
    }
    const { body } = await call("GET", "/v1/admin/page-meta");
    expect((body.data as Listing).rows).toHaveLength(3);
  });
});

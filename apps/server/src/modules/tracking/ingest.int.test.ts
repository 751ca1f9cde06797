import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../app.ts";
import { testConfig } from "../../test/support.ts";
import { type DbTarget, openTarget, sampleRecord, sessionCookie, TARGETS } from "../../test/tracking.ts";
import { securityRoutes } from "../accounts/index.ts";
import { decodeBatch } from "./batch.ts";
import type { TrackingConfig } from "./config.ts";
import { trackingModule } from "./index.ts";
import type { TrackingStore } from "./store.ts";

const CONFIG: TrackingConfig = {
  uploadSwitch: true,
  retentionDays: 3650,
  bodyLimit: 200_000,
  sqliteSync: "full",
  partitionDaysAhead: 2,
};
const REPORT = "/v1/buried/log/info";
const CONFIG_PATH = "/v1/mix/public/clientCommonConfig";

describe.each(TARGETS)("tracking ingest on %s", (name) => {
  let target: DbTarget;
  let app: FastifyInstance;
  let store: TrackingStore | undefined;

  beforeAll(async () => {
    target = await openTarget(name);
    app = await buildApp({
      config: testConfig(),
      db: target.db,
      ssr: false,
      logger: false,
      modules: [
        securityRoutes,
        (api, platform) =>
          trackingModule({
            sessionUser: api.accounts.sessionUserOf,
            config: CONFIG,
            ...(target.trackingFile ? { file: target.trackingFile } : {}),
            onStore: (s) => {
              store = s;
            },
          })(api, platform),
      ],
    });
  });
  afterAll(async () => {
    await app?.close();
    await target?.cleanup();
  });

  // the answer comes once the upload is durable; its events are queryable once settled
  const count = async (where = "1 = 1", params: (string | number)[] = []) => {
    await store?.sink.settled();
    const row = await store?.db.get<{ n: number }>(
      `SELECT COUNT(*) AS n FROM tracking_events WHERE ${where}`,
      params,
    );
    return Number(row?.n ?? 0);
  };
  const upload = (body: unknown, headers: Record<string, string> = {}) =>
    app.inject({
      method: "POST",
      url: REPORT,
      headers: { "content-type": "application/json", ...headers },
      payload: typeof body === "string" ? body : JSON.stringify(body),
    });

  it("keeps the valid events of a mixed batch and names the invalid ones by index and field", async () => {
    const pid = "2000000000000001";
    const res = await upload([
      sampleRecord({ page_unique_id: pid, seq: 0 }),
      sampleRecord({ page_unique_id: pid, seq: 1, event_tracking_id: "nope" }),
      { ...sampleRecord({ page_unique_id: pid, seq: 2 }), device_id: "" },
      sampleRecord({ page_unique_id: pid, seq: 3, type: 2, event_tracking_id: "b1201" }),
    ]);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.code).toBe("00000");
    expect(body.data.received).toBe(4);
    expect(body.data.accepted).toBe(2);
    expect(body.data.rejected.map((r: { index: number }) => r.index)).toEqual([1, 2]);
    expect(body.data.rejected[0].issues[0].field).toBe("event_tracking_id");
    expect(body.data.rejected[1].issues[0].field).toBe("device_id");
    expect(await count("page_unique_id = ?", [pid])).toBe(2);
  });

  it("refuses more than 50 events, malformed JSON, a non-array and an oversized body, storing nothing", async () => {
    const pid = "2000000000000002";
    const many = Array.from({ length: 51 }, (_, seq) => sampleRecord({ page_unique_id: pid, seq }));
    const tooMany = await upload(many);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ code: "10422", msg: expect.stringContaining("51") });

    const malformed = await upload(`[${JSON.stringify(sampleRecord({ page_unique_id: pid }))},`);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().code).toBe("10400");

    const object = await upload(sampleRecord({ page_unique_id: pid }));
    expect(object.json().code).toBe("10422");

    const big = await upload([sampleRecord({ page_unique_id: pid, title: "x".repeat(CONFIG.bodyLimit) })]);
    expect(big.statusCode).toBe(413);
    expect(big.json().code).toBe("10413");
    expect(await count("page_unique_id = ?", [pid])).toBe(0);
  });

  it("stores repeated uploads of the same events once, even when they race", async () => {
    const pid = "2000000000000003";
    const batch = Array.from({ length: 50 }, (_, seq) =>
      sampleRecord({ page_unique_id: pid, seq, log_seq: seq }),
    );
    const answers = await Promise.all([upload(batch), upload(batch), upload(batch.slice(10, 20))]);
    for (const answer of answers) expect(answer.json().code).toBe("00000");
    // a retry after a reload: same events, higher retry_count, later ctime, timely 0
    const retried = batch.map((e) => ({ ...e, retry_count: 1, timely: 0 as const, ctime: e.ctime + 5000 }));
    expect((await upload(retried)).json().data.accepted).toBe(50);
    expect(await count("page_unique_id = ?", [pid])).toBe(50);
  });

  it("keeps each upload whole, its events pointing at it with only what differs in extra", async () => {
    const pid = "2000000000000006";
    const sent = Array.from({ length: 5 }, (_, seq) =>
      sampleRecord({ page_unique_id: pid, seq, log_seq: seq, timestamp: 1_764_000_000_000 + seq }),
    );
    expect((await upload(sent)).json().data.accepted).toBe(5);
    await store?.sink.settled();
    const rows =
      (await store?.db.all<{ seq: number; extra: string; upload_id: number; upload_index: number }>(
        "SELECT seq, extra, upload_id, upload_index FROM tracking_events WHERE page_unique_id = ? ORDER BY seq",
        [pid],
      )) ?? [];
    expect(rows).toHaveLength(5);
    const kept = await store?.db.get<{ batch: string; events: number }>(
      "SELECT batch, events FROM tracking_uploads WHERE id = ?",
      [Number(rows[0]?.upload_id)],
    );
    expect(Number(kept?.events)).toBe(5);
    const { records } = decodeBatch(kept?.batch ?? "");
    for (const row of rows) {
      expect(Number(row.upload_id)).toBe(Number(rows[0]?.upload_id));
      expect(records[row.upload_index]).toEqual(sent[row.seq]);
      // these differ between the events (sampleRecord's times follow timestamp; objects always count)
      expect(JSON.parse(row.extra)).toEqual({
        first_visit_time: sent[row.seq]?.first_visit_time,
        ctime: sent[row.seq]?.ctime,
        event_tracking_ext: {},
        curr_page_ext: {},
      });
    }
  });

  it("accepts text/plain bodies (beacons), records pfb, flags bots by user agent", async () => {
    const pid = "2000000000000004";
    const res = await upload([sampleRecord({ page_unique_id: pid })], {
      "content-type": "text/plain;charset=UTF-8",
      pfb: "campaign-7",
      "user-agent": "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    });
    expect(res.json().code).toBe("00000");
    await store?.sink.settled();
    const row = await store?.db.get<{ is_bot: number; pfb: string; path: string; ref_host: string }>(
      "SELECT is_bot, pfb, path, ref_host FROM tracking_events WHERE page_unique_id = ?",
      [pid],
    );
    expect(row).toEqual({ is_bot: 1, pfb: "campaign-7", path: "/telegram-apps", ref_host: "www.google.com" });

    const human = "2000000000000005";
    await upload([sampleRecord({ page_unique_id: human })], {
      "user-agent":
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0 Safari/537.36",
    });
    expect(await count("page_unique_id = ? AND is_bot = 0", [human])).toBe(1);
  });

  it("answers the SDK's config call with the switch, the logged-in user id and the IP", async () => {
    const anonymous = await app.inject({ method: "POST", url: CONFIG_PATH });
    expect(anonymous.json()).toMatchObject({
      code: "00000",
      data: {
        clientCommonConfig: { eventLogUploadSwitch: true, userId: null },
        localVo: { ip: "127.0.0.1" },
      },
    });
    const cookie = await sessionCookie(target.db, "user");
    const user = await app.inject({ method: "POST", url: CONFIG_PATH, headers: { cookie } });
    expect(user.json().data.clientCommonConfig.userId).toMatch(/^\d{10}$/);
  });

  it("keeps the dashboard to administrators", async () => {
    const url = "/v1/analytics/overview?from=0&to=1000";
    expect((await app.inject({ url })).json().code).toBe("00004");
    const user = await sessionCookie(target.db, "user");
    expect((await app.inject({ url, headers: { cookie: user } })).json().code).toBe("10403");
    const admin = await sessionCookie(target.db, "admin");
    const res = await app.inject({ url, headers: { cookie: admin } });
    expect(res.json().code).toBe("00000");
  });
});

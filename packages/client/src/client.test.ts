import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { ApiError } from "./api-error.ts";
import {
  type ApiClientOptions,
  createApiClient,
  type OutgoingRequest,
  REQUEST_TIMEOUT_MS,
} from "./client.ts";

type FetchArgs = [input: RequestInfo | URL, init?: RequestInit];

function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

function setup(answer: (...args: FetchArgs) => Response | Promise<Response>, options: ApiClientOptions = {}) {
  const fetchMock = vi.fn(async (...args: FetchArgs) => answer(...args));
  const logger = { error: vi.fn() };
  const client = createApiClient({ fetch: fetchMock, logger, ...options });
  const sentHeaders = (i = 0) => (fetchMock.mock.calls[i]?.[1]?.headers ?? {}) as Record<string, string>;
  return { client, fetchMock, logger, sentHeaders };
}

const ok = (data: unknown) => () => jsonResponse({ code: "00000", msg: "success", data });

async function rejection(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the call to reject");
}

afterEach(() => {
  vi.useRealTimers();
});

describe("request headers", () => {
  it("sends the spec headers on every request", async () => {
    const { client, fetchMock, sentHeaders } = setup(ok(1), {
      locale: "ja",
      languageKey: () => "ja_JP",
      terminalCode: "tc-1",
      deviceId: () => "dev-9",
      now: () => 1_700_000_000_123,
    });
    await client.get("v1/mix/system/getDomainConfigList");
    await client.get("v1/mix/system/getDomainConfigList");

    expect(fetchMock.mock.calls[0]?.[0]).toBe("/v1/mix/system/getDomainConfigList");
    const h = sentHeaders(0);
    expect(h).toMatchObject({
      website: "mix",
      "terminal-type": "1",
      locale: "ja",
      language: "ja_JP",
      "terminal-code": "tc-1",
      "device-id": "dev-9",
      tm: "1700000000123",
    });
    expect(h["x-request-id"]).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(sentHeaders(1)["x-request-id"]).not.toBe(h["x-request-id"]);
    expect(h).not.toHaveProperty("paptrading");
  });

  it("defaults to en and derives the language key from the locale table", async () => {
    let locale: string | undefined;
    const { client, sentHeaders } = setup(ok(1), { locale: () => locale });
    await client.get("v1/a");
    locale = "zh-TC";
    await client.get("v1/a");
    expect(sentHeaders(0)).toMatchObject({ locale: "en", language: "en_US" });
    expect(sentHeaders(1)).toMatchObject({ locale: "zh-TC", language: "zh_TW" });
  });

  it("adds paptrading: 1 while simulation mode is on", async () => {
    let simulation = false;
    const { client, sentHeaders } = setup(ok(1), { simulation: () => simulation });
    await client.get("v1/a");
    simulation = true;
    await client.get("v1/a");
    expect(sentHeaders(0)).not.toHaveProperty("paptrading");
    expect(sentHeaders(1)).toHaveProperty("paptrading", "1");
  });

  it("uses the base URL, serialises the query and posts JSON", async () => {
    const { client, fetchMock, sentHeaders } = setup(ok(null), { baseUrl: "http://127.0.0.1:3300/" });
    await client.get("/v1/list", { page: 2, q: "a b", skip: undefined, ids: [1, 2] });
    await client.post("v1/user/logout");
    expect(fetchMock.mock.calls[0]?.[0]).toBe("http://127.0.0.1:3300/v1/list?page=2&q=a+b&ids=1&ids=2");
    const post = fetchMock.mock.calls[1]?.[1];
    expect(post?.method).toBe("POST");
    expect(post?.body).toBe("{}");
    expect(sentHeaders(1)["content-type"]).toBe("application/json");
  });

  it("posts a FormData upload as it is: no JSON, no content-type, nothing for the signer to hash", async () => {
    const beforeSend = vi.fn(async (_request: OutgoingRequest) => undefined);
    const { client, fetchMock, sentHeaders } = setup(ok(null), { beforeSend });
    const form = new FormData();
    form.set("role", "logo");
    await client.post("/v1/admin/media/uploads", form);
    expect(fetchMock.mock.calls[0]?.[1]?.body).toBe(form);
    expect(sentHeaders(0)["content-type"]).toBeUndefined();
    expect(beforeSend.mock.calls[0]?.[0]).toMatchObject({ method: "POST", body: undefined });
  });

  it("puts JSON and sends a DELETE's payload as its query, without a body", async () => {
    const beforeSend = vi.fn(async (_request: OutgoingRequest) => undefined);
    const { client, fetchMock, sentHeaders } = setup(ok(null), { beforeSend });
    await client.put("/v1/admin/page-meta", { pageKey: "home" });
    await client.delete("/v1/admin/page-meta", { pageKey: "home", locale: "en" });
    const put = fetchMock.mock.calls[0]?.[1];
    expect(put?.method).toBe("PUT");
    expect(put?.body).toBe('{"pageKey":"home"}');
    expect(sentHeaders(0)["content-type"]).toBe("application/json");
    expect(fetchMock.mock.calls[1]?.[0]).toBe("/v1/admin/page-meta?pageKey=home&locale=en");
    expect(fetchMock.mock.calls[1]?.[1]?.method).toBe("DELETE");
    expect(fetchMock.mock.calls[1]?.[1]?.body).toBeUndefined();
    expect(sentHeaders(1)["content-type"]).toBeUndefined();
    // The signing hook sees both, the DELETE with its query in the URL it signs.
    expect(beforeSend.mock.calls[0]?.[0]).toMatchObject({ method: "PUT", body: '{"pageKey":"home"}' });
    expect(beforeSend.mock.calls[1]?.[0]).toMatchObject({
      method: "DELETE",
      path: "/v1/admin/page-meta",
      url: "/v1/admin/page-meta?pageKey=home&locale=en",
      body: undefined,
    });
  });

  it("downloads a file answer as bytes and rejects an envelope error", async () => {
    const csv = () => new Response("a,b\n1,2\n", { headers: { "content-type": "text/csv; charset=utf-8" } });
    const { client } = setup(csv);
    const blob = await client.download("/v1/paper/statement/export", { from: 1 });
    expect(await blob.text()).toBe("a,b\n1,2\n");
    const failing = setup(() => jsonResponse({ code: "00004", msg: "Please log in", data: null }));
    expect((await rejection(failing.client.download("/v1/paper/statement/export"))).code).toBe("00004");
    const enveloped = setup(ok({ rows: [] }));
    expect((await rejection(enveloped.client.download("/v1/x"))).kind).toBe("invalid-response");
  });

  it("merges headers from the signing hook, which sees the final body, path and request id", async () => {
    const beforeSend = vi.fn(async (_request: OutgoingRequest) => ({
      "Device-Sign": "sig",
      "device-sign-mode": "2",
    }));
    const { client, sentHeaders } = setup(ok(null), {
      transformBody: ({ body }) => ({ bodyCiphertext: JSON.stringify(body) }),
      beforeSend,
    });
    await client.post("/v1/user/login", { pwd: "x" });
    const seen = beforeSend.mock.calls[0]?.[0];
    expect(seen).toMatchObject({ method: "POST", api: "v1/user/login", path: "/v1/user/login" });
    expect(seen?.body).toBe(JSON.stringify({ bodyCiphertext: '{"pwd":"x"}' }));
    expect(sentHeaders()).toMatchObject({ "device-sign": "sig", "device-sign-mode": "2" });
    expect(sentHeaders()["x-request-id"]).toBe(seen?.requestId);
  });

  it("hands response headers to onResponseHeaders", async () => {
    const onResponseHeaders = vi.fn();
    const { client } = setup(
      () => jsonResponse({ code: "00000", msg: "", data: 1 }, 200, { "request-time": "42" }),
      {
        onResponseHeaders,
      },
    );
    await client.get("v1/a");
    const [headers] = onResponseHeaders.mock.calls[0] ?? [];
    expect((headers as Headers).get("request-time")).toBe("42");
  });
});

describe("envelope", () => {
  it.each(["00000", "200"])("resolves data when code is %s", async (code) => {
    const { client } = setup(() => jsonResponse({ code, msg: "", data: { a: 1 } }));
    await expect(client.get("v1/a")).resolves.toEqual({ a: 1 });
  });

  it("accepts a numeric 200 code from older gateways", async () => {
    const { client } = setup(() => jsonResponse({ code: 200, msg: "", data: "x" }));
    await expect(client.get("v1/a")).resolves.toBe("x");
  });

  it("rejects other codes with the server msg and logs them", async () => {
    const { client, logger } = setup(() => jsonResponse({ code: "10422", msg: "bad field", data: { f: 1 } }));
    const error = await rejection(client.post("v1/a", { x: 1 }));
    expect(error).toMatchObject({
      kind: "api",
      code: "10422",
      msg: "bad field",
      data: { f: 1 },
      httpStatus: 200,
    });
    expect(error.message).toBe("bad field");
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it("does not log when the call is silenced", async () => {
    const { client, logger } = setup(() => jsonResponse({ code: "10422", msg: "bad", data: null }));
    await expect(client.get("v1/a", undefined, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('rejects an empty api name with "wrong api name!" without fetching', async () => {
    const { client, fetchMock } = setup(ok(1));
    const error = await rejection(client.get("  "));
    expect(error).toMatchObject({ kind: "invalid-name", msg: "wrong api name!" });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("rejects HTTP 429 without logging", async () => {
    const { client, logger } = setup(() => new Response("slow down", { status: 429 }));
    const error = await rejection(client.get("v1/a"));
    expect(error).toMatchObject({ kind: "too-many-requests", httpStatus: 429 });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('logs and rejects HTTP 200 with status "error"', async () => {
    const { client, logger } = setup(() => jsonResponse({ status: "error", message: "gateway down" }));
    const error = await rejection(client.get("v1/a"));
    expect(error).toMatchObject({ kind: "status-error", msg: "gateway down", httpStatus: 200 });
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it("rejects a non-envelope answer", async () => {
    const { client } = setup(() => new Response("<html>", { status: 502, statusText: "Bad Gateway" }));
    await expect(rejection(client.get("v1/a"))).resolves.toMatchObject({ kind: "http", httpStatus: 502 });
    const plain = setup(() => new Response("not json"));
    await expect(rejection(plain.client.get("v1/a"))).resolves.toMatchObject({ kind: "invalid-response" });
  });

  it("validates data with a zod schema passed per call", async () => {
    const schema = z.object({ userId: z.string() });
    const good = setup(ok({ userId: "u1", extra: true }));
    const user = await good.client.get("v1/a", undefined, { schema });
    expect(user).toEqual({ userId: "u1" });
    const bad = setup(ok({ userId: 5 }));
    await expect(rejection(bad.client.get("v1/a", undefined, { schema }))).resolves.toMatchObject({
      kind: "invalid-data",
    });
  });
});

describe("transport failures", () => {
  const hang = (_input: RequestInfo | URL, init?: RequestInit) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError")));
    });

  it("times out after 20 s", async () => {
    vi.useFakeTimers();
    const { client, logger } = setup(hang);
    const result = rejection(client.get("v1/a"));
    let settled = false;
    void result.finally(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toMatchObject({ kind: "timeout", msg: "timeout of 20000ms exceeded" });
    expect(REQUEST_TIMEOUT_MS).toBe(20_000);
    expect(logger.error).toHaveBeenCalledTimes(1);
  });

  it("reports a caller abort as aborted, silently", async () => {
    const { client, logger } = setup(hang);
    const controller = new AbortController();
    const result = rejection(client.get("v1/a", undefined, { signal: controller.signal }));
    controller.abort();
    await expect(result).resolves.toMatchObject({ kind: "aborted", msg: "Request aborted" });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("reports a failed fetch as a network error", async () => {
    const { client } = setup(() => {
      throw new TypeError("Failed to fetch");
    });
    await expect(rejection(client.get("v1/a"))).resolves.toMatchObject({
      kind: "network",
      msg: "Network Error",
    });
  });
});

describe("error hooks", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(new Date("2026-01-01T00:00:00Z"));
  });

  it.each(["00004", "20906", "20205"])(
    "fires onForcedLogout on %s except for the user-info call",
    async (code) => {
      const onForcedLogout = vi.fn();
      const { client } = setup(() => jsonResponse({ code, msg: "logged out", data: null }), {
        onForcedLogout,
      });
      await expect(client.post("v1/user/overview/userinfo", { locale: "en" })).rejects.toBeInstanceOf(
        ApiError,
      );
      await expect(client.post("/v1/user/overview/userinfo")).rejects.toBeInstanceOf(ApiError);
      expect(onForcedLogout).not.toHaveBeenCalled();
      await expect(client.get("v1/asset/list")).rejects.toMatchObject({ code });
      expect(onForcedLogout).toHaveBeenCalledWith(code, "v1/asset/list");
    },
  );

  it("throttles onForcedLogout to once per 2 s", async () => {
    const onForcedLogout = vi.fn();
    const { client } = setup(() => jsonResponse({ code: "00004", msg: "", data: null }), { onForcedLogout });
    await Promise.allSettled([client.get("v1/a"), client.get("v1/b"), client.get("v1/c")]);
    expect(onForcedLogout).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1999);
    await client.get("v1/a").catch(() => undefined);
    expect(onForcedLogout).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await client.get("v1/a").catch(() => undefined);
    expect(onForcedLogout).toHaveBeenCalledTimes(2);
  });

  it.each(["00020", "00021", "00022", "00023"])(
    "fires onSignError on %s with the server msg",
    async (code) => {
      const onSignError = vi.fn();
      const onForcedLogout = vi.fn();
      const { client } = setup(() => jsonResponse({ code, msg: "sign problem", data: null }), {
        onSignError,
        onForcedLogout,
      });
      await client.get("v1/a").catch(() => undefined);
      await client.get("v1/a").catch(() => undefined);
      expect(onSignError).toHaveBeenCalledTimes(1);
      expect(onSignError).toHaveBeenCalledWith(code, "sign problem", "v1/a");
      expect(onForcedLogout).not.toHaveBeenCalled();
    },
  );

  it("keeps rejecting with the ApiError when a hook throws", async () => {
    const { client, logger } = setup(() => jsonResponse({ code: "00004", msg: "x", data: null }), {
      onForcedLogout: () => {
        throw new Error("boom");
      },
    });
    await expect(client.get("v1/a")).rejects.toMatchObject({ kind: "api", code: "00004" });
    expect(logger.error).toHaveBeenCalledTimes(2);
  });
});

describe("fast image domain", () => {
  const data = { logo: "https://img.old.com/a.png", html: '<img src="//img.old.com/b.png">' };
  const imageDomain = { fastHost: () => "img.fast.com", allowedHosts: ["img.old.com"] };

  it("rewrites image hosts in answers", async () => {
    const { client } = setup(ok(data), { imageDomain });
    await expect(client.get("v1/airdrop/list")).resolves.toEqual({
      logo: "https://img.fast.com/a.png",
      html: '<img src="//img.fast.com/b.png">',
    });
  });

  it("leaves the domain-config answer alone", async () => {
    const { client } = setup(ok(data), { imageDomain });
    await expect(client.get("v1/mix/system/getDomainConfigList")).resolves.toEqual(data);
  });
});

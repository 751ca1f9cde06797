// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from "vitest";
import { COOKIE_DEVICE, KEY_EVENT_UID, KEY_FINGERPRINT } from "./constants.ts";
import {
  eventUid,
  fingerprint,
  hash,
  newEventUid,
  newSessionId,
  resolveDeviceId,
  tabSync,
  writeDeviceCookie,
} from "./ids.ts";

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  localStorage.clear();
});

describe("ids", () => {
  it("event uid is w- + 9 digits + ms timestamp + 9 digits, kept in local storage", () => {
    vi.useFakeTimers({ now: 1_795_334_400_123 });
    expect(newEventUid()).toMatch(/^w-\d{9}1795334400123\d{9}$/);
    const uid = eventUid();
    expect(localStorage.getItem(KEY_EVENT_UID)).toBe(uid);
    expect(eventUid()).toBe(uid);
  });

  it("session id is device id + ms timestamp + random 0-100", () => {
    vi.useFakeTimers({ now: 1_795_334_400_123 });
    const random = vi.spyOn(Math, "random");
    random.mockReturnValue(0);
    expect(newSessionId("abc")).toBe("abc17953344001230");
    random.mockReturnValue(0.9999);
    expect(newSessionId("abc")).toBe("abc1795334400123100");
  });

  it("fingerprint is a stable 16-hex hash; the audio part is capped at 500 ms", async () => {
    vi.useFakeTimers();
    let rendered = false;
    class HangingAudio {
      createOscillator() {
        return { type: "", frequency: { value: 0 }, connect() {}, start() {} };
      }
      createDynamicsCompressor() {
        return { connect() {} };
      }
      destination = {};
      startRendering() {
        rendered = true;
        return new Promise(() => undefined);
      }
    }
    vi.stubGlobal("OfflineAudioContext", HangingAudio);
    let result = "";
    void fingerprint().then((value) => {
      result = value;
    });
    await vi.advanceTimersByTimeAsync(499);
    expect(result).toBe("");
    await vi.advanceTimersByTimeAsync(1);
    expect(rendered).toBe(true);
    expect(result).toMatch(/^[0-9a-f]{16}$/);
    expect(hash("a")).not.toBe(hash("b"));
    expect(hash("same")).toBe(hash("same"));
  });

  it("another tab answers with its device id; nobody answering times out after 1 s", async () => {
    const other = tabSync(() => "from-other-tab");
    const mine = tabSync(() => "");
    await expect(mine.ask()).resolves.toBe("from-other-tab");
    other.close();
    vi.useFakeTimers();
    let answer: string | undefined;
    void mine.ask().then((value) => {
      answer = value;
    });
    await vi.advanceTimersByTimeAsync(999);
    expect(answer).toBeUndefined();
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toBe("");
    mine.close();
  });

  it("resolves the device id from storage, then the cookie, else another tab or the fingerprint", async () => {
    localStorage.setItem(KEY_FINGERPRINT, "stored");
    await expect(resolveDeviceId(async () => "tab")).resolves.toBe("stored");
    localStorage.clear();
    await expect(resolveDeviceId(async () => "tab")).resolves.toBe("stored");
    // biome-ignore lint/suspicious/noDocumentCookie: test set-up
    document.cookie = `${COOKIE_DEVICE}=; max-age=0; path=/`;
    localStorage.clear();
    await expect(resolveDeviceId(async () => "tab")).resolves.toBe("tab");
    expect(localStorage.getItem(KEY_FINGERPRINT)).toBe("tab");
    // biome-ignore lint/suspicious/noDocumentCookie: test set-up
    document.cookie = `${COOKIE_DEVICE}=; max-age=0; path=/`;
    localStorage.clear();
    await expect(resolveDeviceId(async () => "")).resolves.toMatch(/^[0-9a-f]{16}$/);
  });

  it("writes at most 10 device cookies while looking for the widest domain", () => {
    const writes: string[] = [];
    Object.defineProperty(document, "cookie", {
      configurable: true,
      get: () => "",
      set: (value: string) => {
        writes.push(value);
      },
    });
    writeDeviceCookie("id1", "a.b.c.d.e.f.g.h.i.j.k.l.example.com");
    expect(writes).toHaveLength(10);
    expect(writes[0]).toContain("domain=example.com");
    expect(writes.at(-1)).not.toContain("domain=");
    writes.length = 0;
    writeDeviceCookie("id1", "www.example.com");
    expect(writes.map((w) => /domain=([^;]+)/.exec(w)?.[1] ?? "host")).toEqual([
      "example.com",
      "www.example.com",
      "host",
    ]);
    // back to the prototype's accessor
    delete (document as { cookie?: string }).cookie;
  });
});

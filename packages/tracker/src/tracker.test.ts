// @vitest-environment jsdom
import { trackingBatchSchema } from "@meridian/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { KEY_EVENTS, KEY_TAB, SETTLE_MS } from "./constants.ts";
import { destroy, flush, init, setUser, track } from "./index.ts";
import { CONFIG, fakeIntersectionObserver, settle, setup, setVisibility, teardown } from "./testing.ts";

vi.mock("web-vitals", () => {
  const report =
    (name: string, value: number) =>
    (cb: (metric: { name: string; value: number }) => void): void =>
      cb({ name, value });
  return {
    onLCP: report("LCP", 1234.4),
    onCLS: report("CLS", 0.012345),
    onINP: report("INP", 88),
    onFCP: report("FCP", 700.6),
    onTTFB: report("TTFB", 120),
  };
});

afterEach(teardown);

const rawPush = (url: string) => History.prototype.pushState.call(window.history, null, "", url);

describe("upload loop", () => {
  it("uploads in batches of at most 50 events", async () => {
    const ingest = setup();
    for (let i = 0; i < 119; i++) track("click", "b1", { i });
    await vi.advanceTimersByTimeAsync(1500);
    expect(ingest.uploads.map((u) => u.events.length)).toEqual([50, 50, 20]);
    expect(ingest.uploads[0]?.url).toBe("https://r.test/v1/buried/log/info");
    const logSeqs = ingest.events().map((e) => e.log_seq);
    expect(logSeqs).toEqual([...logSeqs].sort((a, b) => a - b));
  });

  it("runs every 500 ms", async () => {
    const ingest = setup();
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.uploads).toHaveLength(1);
    track("click", "b2");
    await vi.advanceTimersByTimeAsync(499);
    expect(ingest.uploads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(ingest.uploads).toHaveLength(2);
  });

  it("pauses uploads for 10 s after a 403, without counting a retry", async () => {
    const ingest = setup();
    ingest.status.push(403);
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.uploads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(9_999);
    expect(ingest.uploads).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.uploads).toHaveLength(2);
    expect(ingest.uploads[1]?.events[0]?.retry_count).toBe(0);
  });

  it("retries other failures with capped jittered exponential backoff, counting retry_count", async () => {
    const ingest = setup();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    ingest.status.push(...Array(12).fill(500));
    await vi.advanceTimersByTimeAsync(400_000);
    const attempts = ingest.uploads.slice(0, 11);
    expect(attempts.map((u) => u.events[0]?.retry_count)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const gaps = attempts.slice(1).map((u, i) => u.at - (attempts[i]?.at ?? 0));
    // 0.75 x 1 s, 2 s, 4 s ... rounded up to the 500 ms loop, capped at 0.75 x 60 s
    expect(gaps.slice(0, 6)).toEqual([1000, 1500, 3000, 6000, 12000, 24000]);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(45_500);
    // the 11th failure drops the event the ingest keeps refusing
    expect(ingest.uploads.at(-1)?.events[0]?.retry_count ?? 0).toBeLessThanOrEqual(10);
    expect(console.warn).toHaveBeenCalled();
  });

  it("holds events until the device id is known, then sends them with the context", async () => {
    const ingest = setup({ deviceId: null });
    track("click", "b3");
    await vi.advanceTimersByTimeAsync(600);
    expect(ingest.uploads).toHaveLength(0);
    // no other tab answers within 1 s: the fingerprint becomes the device id
    await vi.advanceTimersByTimeAsync(1_000);
    const events = ingest.events();
    expect(events.map((e) => e.event_tracking_id)).toEqual(["b9332", "b3"]);
    for (const e of events) {
      expect(e.device_id).toMatch(/^[0-9a-f]{16}$/);
      expect(e.session_id.startsWith(e.device_id)).toBe(true);
    }
  });

  it("uploads nothing when the config switch is off, or when the config call fails", async () => {
    let ingest = setup({ uploadSwitch: false });
    track("click", "b4");
    await vi.advanceTimersByTimeAsync(2_000);
    setVisibility("hidden");
    expect(ingest.uploads).toHaveLength(0);
    teardown();

    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    ingest = setup({ uploadSwitch: "fail" });
    track("click", "b4");
    await vi.advanceTimersByTimeAsync(2_000);
    setVisibility("hidden");
    expect(ingest.uploads).toHaveLength(0);
    expect(warn).toHaveBeenCalledWith(
      expect.any(String),
      expect.stringContaining("uploads disabled"),
      expect.anything(),
    );
  });

  it("adds the pfb header when the page URL has a pfb parameter", async () => {
    const ingest = setup({ url: "/en/telegram-apps?pfb=partner7" });
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.uploads[0]?.headers.pfb).toBe("partner7");
    teardown();
    const plain = setup();
    await vi.advanceTimersByTimeAsync(500);
    expect(plain.uploads[0]?.headers.pfb).toBeUndefined();
  });

  it("sends events one by one to the app bridge instead of HTTP", async () => {
    const postEvent = vi.fn();
    window.MeridianBridge = { postEvent };
    const ingest = setup();
    track("click", "b5", { x: 1 });
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.uploads).toHaveLength(0);
    expect(postEvent).toHaveBeenCalledTimes(2);
    const sent = postEvent.mock.calls.map(([json]) => JSON.parse(json as string));
    expect(sent.map((e) => e.event_tracking_id)).toEqual(["b9332", "b5"]);
    expect(sent[1].sys).toBe(5);
    expect(sent[1].event_tracking_ext).toEqual({ x: 1 });
  });

  it("fills uid and ip from the config call; setUser overrides uid", async () => {
    const ingest = setup({ userId: "u-42" });
    await vi.advanceTimersByTimeAsync(500);
    track("click", "b6");
    setUser("u-7");
    track("click", "b7");
    setUser(null);
    track("click", "b8");
    await vi.advanceTimersByTimeAsync(500);
    const [b6, b7, b8] = ingest.uploads[1]?.events ?? [];
    expect(b6?.uid).toBe("u-42");
    expect(b6?.ip).toBe("203.0.113.9");
    expect(b7?.uid).toBe("u-7");
    expect(b8?.uid).toMatch(/^w-\d{31}$/);
  });

  it("flush uploads at once and never rejects", async () => {
    const ingest = setup();
    await settle();
    track("click", "b9");
    await flush();
    expect(ingest.events().map((e) => e.event_tracking_id)).toEqual(["b9332", "b9"]);
    destroy();
    await expect(flush()).resolves.toBeUndefined();
  });
});

describe("contract", () => {
  it("every upload is a valid @meridian/contracts tracking batch", async () => {
    const ingest = setup({ url: "/ar/telegram-apps/wallet-bot/articles?qr=abc" });
    track("click", "b60", { a: 1 }, { merge: true });
    track("click", "b60", { a: 2 }, { merge: true });
    track("video", "/", { seconds: 3 });
    history.pushState(null, "", "/airdrop");
    await vi.advanceTimersByTimeAsync(500);
    setVisibility("hidden");
    await settle();
    expect(ingest.uploads).toHaveLength(2);
    for (const upload of ingest.uploads) expect(() => trackingBatchSchema.parse(upload.events)).not.toThrow();
    expect(ingest.events()[0]).toMatchObject({ user_language: 99, curr_page: "b9642", qr_val: "abc" });
  });
});

describe("events", () => {
  it("merges events with the merge flag and the same id, collecting ext in a list", async () => {
    const ingest = setup();
    track("click", "b10", { n: 1 }, { merge: true });
    track("click", "b10", { n: 2 }, { merge: true });
    track("click", "b11", { n: 3 }, { merge: true });
    track("click", "b10", { n: 4 }, { merge: true });
    track("click", "b10", { n: 5 });
    await vi.advanceTimersByTimeAsync(500);
    const clicks = ingest.events().filter((e) => e.type === 2);
    expect(clicks.map((e) => [e.event_tracking_id, e.merge, e.event_tracking_ext])).toEqual([
      ["b10", 1, [{ n: 1 }, { n: 2 }, { n: 4 }]],
      ["b11", 1, [{ n: 3 }]],
      ["b10", 0, { n: 5 }],
    ]);
  });

  it("drops events whose id is not '/' or b + digits, with a warning", async () => {
    const ingest = setup();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    for (const id of ["x12", "b", "B12", "b12a", "", "//"]) track("click", id);
    track("click", "/");
    track(2, "b12");
    track(42, "b13");
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.events().map((e) => e.event_tracking_id)).toEqual(["b9332", "/", "b12"]);
    expect(warn).toHaveBeenCalledTimes(7);
  });

  it("records clicks inside [data-track-click] with their ext, as auto events", async () => {
    const ingest = setup();
    document.body.innerHTML = `<a data-track-click="b200" data-track-ext='{"pos":3}'><span id="in">x</span></a>`;
    document.getElementById("in")?.click();
    await vi.advanceTimersByTimeAsync(500);
    const click = ingest.events().find((e) => e.type === 2);
    expect(click).toMatchObject({ event_tracking_id: "b200", event_tracking_ext: { pos: 3 }, track_type: 1 });
  });

  it("counts an element that stayed on screen across a navigation without a render when the tab hides", async () => {
    const io = fakeIntersectionObserver();
    document.body.innerHTML = `<a class="card" data-track-expose="b9332" data-track-merge data-track-ext='{"i":1}'></a>`;
    const ingest = setup({ url: "/en/telegram-apps" });
    const card = document.querySelector(".card");
    if (!card) throw new Error("no card");
    io.fire(card);
    await vi.advanceTimersByTimeAsync(500);
    // back and forward before the router rendered anything: the same card, a new page view
    history.pushState(null, "", "/en");
    history.pushState(null, "", "/en/telegram-apps");
    io.fire(card);
    setVisibility("hidden");
    setVisibility("visible");
    await vi.advanceTimersByTimeAsync(1000);
    const last = ingest
      .events()
      .filter((e) => new URL(e.url).pathname === "/en/telegram-apps" && e.type !== 9)
      .slice(-3);
    // its expose comes before the page view's leave event, not after it
    expect(last.map((e) => [e.type, e.page_status])).toEqual([
      [1, 0],
      [3, 0],
      [1, 1],
    ]);
  });

  it("holds an expose seen for another URL until that URL is the current page", async () => {
    const io = fakeIntersectionObserver();
    document.body.innerHTML = `<div id="banner" data-track-expose="b300" data-track-ext='{"slot":1}'></div>`;
    const ingest = setup({ url: "/en/telegram-apps" });
    const banner = document.getElementById("banner");
    if (!banner) throw new Error("no banner");
    expect(io.observed.has(banner)).toBe(true);
    // the URL moved on, but the tracker has not seen the change yet (popstate is queued)
    rawPush("/en/telegram-apps/wallet-bot");
    io.fire(banner);
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.events().some((e) => e.type === 3)).toBe(false);
    window.dispatchEvent(new PopStateEvent("popstate"));
    await vi.advanceTimersByTimeAsync(500);
    const events = ingest.events();
    expect(events.map((e) => [e.type, e.page_status, e.curr_page])).toEqual([
      [1, 0, "b9332"],
      [1, 1, "b9332"],
      [1, 0, "b9331"],
      [3, 0, "b9331"],
    ]);
    expect(events[3]?.page_unique_id).toBe(events[2]?.page_unique_id);
    expect(events[3]?.event_tracking_ext).toEqual({ slot: 1 });
    // the element stayed on screen (no render replaced it): the new page view observes it again
    await vi.advanceTimersByTimeAsync(SETTLE_MS);
    expect(io.observed.has(banner)).toBe(true);
  });

  it("does not expose the previous page's cards again under the next page's URL", async () => {
    const io = fakeIntersectionObserver();
    const card = (i: number) =>
      `<a class="card" data-track-expose="b9401" data-track-merge data-track-ext='{"i":${i}}'></a>`;
    document.body.innerHTML = `<header data-track-expose="b100"></header><main>${[0, 1, 2].map(card).join("")}</main>`;
    const ingest = setup({ url: "/en/telegram-apps" });
    for (const el of document.querySelectorAll("[data-track-expose]")) io.fire(el);
    await vi.advanceTimersByTimeAsync(500);
    const exposesOn = (page: string) =>
      ingest.events().filter((e) => e.type === 3 && new URL(e.url).pathname === page);
    expect(exposesOn("/en/telegram-apps")).toHaveLength(2);

    // the router changes the URL first and renders the next page a moment later: the old
    // cards are still on screen meanwhile, and report under the new URL
    history.pushState(null, "", "/en/telegram-apps/wallet-bot");
    const oldCards = [...document.querySelectorAll(".card")];
    const header = document.querySelector("header");
    if (!header) throw new Error("no header");
    await vi.advanceTimersByTimeAsync(50);
    for (const el of [header, ...oldCards]) io.fire(el);
    await vi.advanceTimersByTimeAsync(250);
    const main = document.querySelector("main");
    if (!main) throw new Error("no main");
    main.innerHTML = `<section data-track-expose="b9331"></section>`;
    await vi.advanceTimersByTimeAsync(150);
    const detail = document.querySelector("section");
    if (!detail) throw new Error("no detail");
    expect(io.observed.has(detail)).toBe(true);
    io.fire(detail);
    await vi.advanceTimersByTimeAsync(500);
    expect(exposesOn("/en/telegram-apps/wallet-bot").map((e) => e.event_tracking_id)).toEqual([
      "b100",
      "b9331",
    ]);
  });

  it("shows a page on every URL change and emits the previous page's hide first", async () => {
    const ingest = setup({ url: "/en/telegram-apps" });
    history.pushState(null, "", "/ja/telegram-apps/wallet-bot");
    history.replaceState(null, "", "/ja/telegram-apps/wallet-bot");
    history.replaceState(null, "", "/ja/telegram-apps/wallet-bot/articles");
    history.back();
    await vi.advanceTimersByTimeAsync(50);
    window.location.hash = "#faq";
    await vi.advanceTimersByTimeAsync(500);
    const pages = ingest.events().filter((e) => e.type === 1);
    expect(
      pages.map((e) => [e.page_status, e.curr_page, new URL(e.url).pathname + new URL(e.url).hash]),
    ).toEqual([
      [0, "b9332", "/en/telegram-apps"],
      [1, "b9332", "/en/telegram-apps"],
      [0, "b9331", "/ja/telegram-apps/wallet-bot"],
      [1, "b9331", "/ja/telegram-apps/wallet-bot"],
      [0, "b9642", "/ja/telegram-apps/wallet-bot/articles"],
      [1, "b9642", "/ja/telegram-apps/wallet-bot/articles"],
      [0, "b9332", "/en/telegram-apps"],
      [1, "b9332", "/en/telegram-apps"],
      [0, "b9332", "/en/telegram-apps#faq"],
    ]);
    // a show and its hide share the page view id; the hide says how long it lasted
    expect(pages[1]?.page_unique_id).toBe(pages[0]?.page_unique_id);
    expect(pages[1]?.event_tracking_ext).toMatchObject({ duration: expect.any(Number) });
    expect(pages[2]?.user_language).toBe(2);
    expect(pages[2]?.referer).toBe(pages[0]?.url);
    expect(pages[0]).toMatchObject({
      business1: "Price",
      business2: "Crypto Price",
      track_type: 1,
      timely: 1,
    });
  });
});

describe("page hidden", () => {
  it("stops the loop, emits the leave event, sends metrics once and the rest by beacon; restarts when visible", async () => {
    const ingest = setup();
    await vi.advanceTimersByTimeAsync(500);
    track("click", "b20");
    setVisibility("hidden");
    await settle();
    const beacons = ingest.uploads.filter((u) => u.via === "beacon");
    expect(beacons).toHaveLength(1);
    expect(beacons[0]?.events.map((e) => [e.type, e.event_tracking_id, e.page_status])).toEqual([
      [2, "b20", 0],
      [1, "b9332", 1],
      [9, "/", 0],
    ]);
    expect(beacons[0]?.events[2]?.event_tracking_ext).toEqual({
      lcp: 1234,
      cls: 0.0123,
      inp: 88,
      fcp: 701,
      ttfb: 120,
    });
    track("click", "b21");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(ingest.uploads).toHaveLength(2);
    setVisibility("visible");
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.uploads).toHaveLength(3);
    setVisibility("hidden");
    await settle();
    // metrics once per page load, and no second leave event for the same page view
    expect(ingest.events().filter((e) => e.type === 9 || e.page_status === 1)).toHaveLength(2);
  });

  it("counts a page restored from the back/forward cache as a new page view", async () => {
    const ingest = setup({ url: "/en/telegram-apps" });
    await vi.advanceTimersByTimeAsync(500);
    // Away to another document: hidden, then put in the cache; back: shown from it.
    setVisibility("hidden");
    window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true }));
    await settle();
    setVisibility("visible");
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
    // A page shown from a fresh load is not a second view.
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: false }));
    await vi.advanceTimersByTimeAsync(500);
    setVisibility("hidden");
    await settle();
    const pages = ingest.events().filter((e) => e.type === 1);
    expect(pages.map((e) => [e.page_status, e.curr_page])).toEqual([
      [0, "b9332"],
      [1, "b9332"],
      [0, "b9332"],
      [1, "b9332"],
    ]);
    expect(pages[2]?.page_unique_id).not.toBe(pages[0]?.page_unique_id);
    expect(pages[3]?.page_unique_id).toBe(pages[2]?.page_unique_id);
  });

  it("sends what another page of the tab left unsent while this one was in the back/forward cache", async () => {
    const ingest = setup({ url: "/en/telegram-apps" });
    await vi.advanceTimersByTimeAsync(500);
    setVisibility("hidden");
    window.dispatchEvent(new PageTransitionEvent("pagehide", { persisted: true }));
    await settle();
    // The next document of this tab (Back to a page loaded afresh) recorded its view, then
    // was left before its config call answered: it stored its events under the tab's key.
    const tab = JSON.parse(sessionStorage.getItem(KEY_TAB) ?? "{}").tab as string;
    const record = (seq: number, status: number) => ({
      type: 1,
      event_tracking_id: "/",
      page_unique_id: "4242424242424242",
      seq,
      page_status: status,
      device_id: "dev1",
      retry_count: 0,
    });
    localStorage.setItem(
      KEY_EVENTS,
      JSON.stringify({ [tab]: { t: Date.now(), e: [record(0, 0), record(1, 1)] } }),
    );
    // Forward again: this page comes back from the cache.
    setVisibility("visible");
    window.dispatchEvent(new PageTransitionEvent("pageshow", { persisted: true }));
    await vi.advanceTimersByTimeAsync(1_000);
    const theirs = ingest.events().filter((e) => e.page_unique_id === "4242424242424242");
    expect(theirs.map((e) => [e.seq, e.page_status])).toEqual([
      [0, 0],
      [1, 1],
    ]);
    expect(localStorage.getItem(KEY_EVENTS)).toBeNull();
  });

  it("splits beacons at 64 KiB and falls back to keepalive fetch when the beacon is refused", async () => {
    const ingest = setup();
    await vi.advanceTimersByTimeAsync(500);
    const blob = "x".repeat(9_000);
    for (let i = 0; i < 30; i++) track("video", "b30", { i, blob });
    ingest.beaconAccepts = false;
    ingest.beaconMock.mockImplementationOnce((url: string, data: Blob) => {
      const upload = {
        at: Date.now(),
        via: "beacon" as const,
        url,
        headers: {},
        keepalive: true,
        events: [],
        bytes: data.size,
      };
      ingest.uploads.push(upload);
      void data.text().then((text) => {
        upload.events = JSON.parse(text);
      });
      return true;
    });
    setVisibility("hidden");
    await settle();
    const hidden = ingest.uploads.slice(1);
    expect(hidden[0]?.via).toBe("beacon");
    expect(hidden.slice(1).every((u) => u.via === "fetch" && u.keepalive)).toBe(true);
    expect(hidden.length).toBeGreaterThanOrEqual(5);
    for (const upload of hidden) expect(upload.bytes).toBeLessThanOrEqual(64 * 1024);
    const videos = hidden.flatMap((u) => u.events).filter((e) => e.type === 8);
    expect(videos.map((e) => (e.event_tracking_ext as { i: number }).i)).toEqual([...Array(30).keys()]);
  });

  it("sends by keepalive fetch instead of beacon when the pfb header is needed", async () => {
    const ingest = setup({ url: "/?pfb=p1" });
    await vi.advanceTimersByTimeAsync(500);
    track("click", "b22");
    setVisibility("hidden");
    await settle();
    expect(ingest.beaconMock).not.toHaveBeenCalled();
    expect(ingest.uploads.at(-1)).toMatchObject({ via: "fetch", keepalive: true, headers: { pfb: "p1" } });
  });
});

describe("storage", () => {
  it("keeps unsent events in local storage and sends them after a reload", async () => {
    let ingest = setup({ uploadSwitch: "hang" });
    track("click", "b40");
    await vi.advanceTimersByTimeAsync(1_000);
    expect(ingest.uploads).toHaveLength(0);
    const tab = JSON.parse(sessionStorage.getItem(KEY_TAB) ?? "{}").tab as string;
    expect(JSON.parse(localStorage.getItem(KEY_EVENTS) ?? "{}")[tab].e).toHaveLength(2);
    // the page goes away without a visibility change (crash, killed tab)
    destroy();
    vi.unstubAllGlobals();
    ingest = setup({ keepStorage: true, url: "/en/telegram-apps" });
    await vi.advanceTimersByTimeAsync(500);
    const events = ingest.events();
    expect(events.map((e) => [e.event_tracking_id, e.page_status, e.timely])).toEqual([
      ["b9332", 0, 0],
      ["b40", 0, 0],
      ["b9332", 0, 1],
    ]);
    expect(localStorage.getItem(KEY_EVENTS)).toBeNull();
  });

  it("adopts the stored events of a tab gone for 10 s, never those of a live tab", async () => {
    const record = (id: string) => ({ type: 2, event_tracking_id: id, device_id: "dev1", retry_count: 0 });
    localStorage.setItem(
      KEY_EVENTS,
      JSON.stringify({
        gone: { t: Date.parse("2026-11-22T07:59:00Z"), e: [record("b41")] },
        live: { t: Date.parse("2026-11-22T07:59:58Z"), e: [record("b42")] },
      }),
    );
    const ingest = setup({ keepStorage: true });
    await vi.advanceTimersByTimeAsync(500);
    expect(ingest.events().map((e) => e.event_tracking_id)).toEqual(["b41", "b9332"]);
    expect(Object.keys(JSON.parse(localStorage.getItem(KEY_EVENTS) ?? "{}"))).toEqual(["live"]);
  });

  it("cleans keys starting with an underscore when storage is full, then retries", () => {
    localStorage.clear();
    localStorage.setItem("_img_cache", "x".repeat(100));
    localStorage.setItem("_tips", "1");
    localStorage.setItem("locale", "en");
    const original = Storage.prototype.setItem;
    vi.spyOn(Storage.prototype, "setItem").mockImplementation(function (
      this: Storage,
      key: string,
      value: string,
    ) {
      if (key === KEY_EVENTS && this.getItem("_img_cache") !== null) {
        throw new DOMException("full", "QuotaExceededError");
      }
      original.call(this, key, value);
    });
    setup({ uploadSwitch: "hang", keepStorage: true });
    track("click", "b43");
    expect(localStorage.getItem("_img_cache")).toBeNull();
    expect(localStorage.getItem("_tips")).toBeNull();
    expect(localStorage.getItem("locale")).toBe("en");
    expect(localStorage.getItem(KEY_EVENTS)).toContain("b43");
  });
});

describe("never throws into the host page", () => {
  it("tolerates calls before init, after destroy, bad input and a broken environment", async () => {
    destroy();
    expect(() => track("click", "b1")).not.toThrow();
    expect(() => setUser("u")).not.toThrow();
    const ingest = setup();
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => track("click", "b50", circular)).not.toThrow();
    vi.spyOn(console, "warn").mockImplementation(() => undefined);
    expect(() => track("nope" as "click", "b51")).not.toThrow();
    expect(() => init(CONFIG)).not.toThrow();
    Object.defineProperty(document, "title", {
      configurable: true,
      get() {
        throw new Error("broken title");
      },
    });
    expect(() => history.pushState(null, "", "/en/other")).not.toThrow();
    expect(window.location.pathname).toBe("/en/other");
    expect(() => setVisibility("hidden")).not.toThrow();
    // back to jsdom's own getter
    delete (document as { title?: string }).title;
    vi.stubGlobal("fetch", () => {
      throw new Error("no network");
    });
    setVisibility("visible");
    await vi.advanceTimersByTimeAsync(2_000);
    expect(ingest.events().some((e) => e.event_tracking_id === "b50")).toBe(false);
  });
});

/**
 * Test support for the jsdom suites: a fake ingest behind `fetch`, a fake beacon, a
 * controllable IntersectionObserver and page visibility. Not part of the bundle.
 */
import type { TrackingRecord } from "@meridian/contracts";
import { vi } from "vitest";
import { CONFIG_PATH, COOKIE_DEVICE, KEY_FINGERPRINT, REPORT_PATH } from "./constants.ts";
import { destroy, init } from "./index.ts";

export interface Upload {
  at: number;
  via: "fetch" | "beacon";
  url: string;
  headers: Record<string, string>;
  keepalive: boolean;
  events: TrackingRecord[];
  bytes: number;
}

export interface Ingest {
  uploads: Upload[];
  /** Every event uploaded, in order. */
  events(): TrackingRecord[];
  /** Status the next uploads answer (default 200). */
  status: number[];
  beaconAccepts: boolean;
  fetchMock: ReturnType<typeof vi.fn>;
  beaconMock: ReturnType<typeof vi.fn>;
}

export interface SetupOptions {
  /** Stored device id; null starts without one. */
  deviceId?: string | null;
  /** eventLogUploadSwitch; "fail" answers 500, "hang" never answers. */
  uploadSwitch?: boolean | "fail" | "hang";
  userId?: string;
  url?: string;
  start?: boolean;
  keepStorage?: boolean;
}

export const CONFIG = {
  appId: "meridian-web",
  appName: "Meridian",
  ver: "2.0.0",
  reportBase: "https://r.test",
};

/** Fake timers, clean storage, fake ingest; starts the tracker unless `start: false`. */
export function setup(options: SetupOptions = {}): Ingest {
  vi.useFakeTimers({ now: new Date("2026-11-22T08:00:00Z") });
  if (!options.keepStorage) {
    localStorage.clear();
    sessionStorage.clear();
  }
  const deviceId = options.deviceId === undefined ? "dev1" : options.deviceId;
  if (deviceId) localStorage.setItem(KEY_FINGERPRINT, deviceId);
  // biome-ignore lint/suspicious/noDocumentCookie: clears the device id cookie a previous test left
  else document.cookie = `${COOKIE_DEVICE}=; max-age=0; path=/`;
  window.history.replaceState(null, "", options.url ?? "/en/telegram-apps");
  setVisibility("visible", false);

  const ingest: Ingest = {
    uploads: [],
    events: () => ingest.uploads.flatMap((u) => u.events),
    status: [],
    beaconAccepts: true,
    fetchMock: vi.fn(),
    beaconMock: vi.fn(),
  };
  ingest.fetchMock.mockImplementation(async (url: string, request: RequestInit = {}) => {
    if (url.endsWith(CONFIG_PATH)) {
      if (options.uploadSwitch === "hang") return new Promise(() => undefined);
      if (options.uploadSwitch === "fail") return new Response("", { status: 500 });
      return Response.json({
        code: "00000",
        msg: "ok",
        data: {
          clientCommonConfig: { eventLogUploadSwitch: options.uploadSwitch ?? true, userId: options.userId },
          localVo: { ip: "203.0.113.9" },
        },
      });
    }
    if (!url.endsWith(REPORT_PATH)) throw new Error(`unexpected fetch ${url}`);
    const body = String(request.body);
    ingest.uploads.push({
      at: Date.now(),
      via: "fetch",
      url,
      headers: { ...(request.headers as Record<string, string>) },
      keepalive: !!request.keepalive,
      events: JSON.parse(body) as TrackingRecord[],
      bytes: new TextEncoder().encode(body).length,
    });
    return new Response(null, { status: ingest.status.shift() ?? 200 });
  });
  ingest.beaconMock.mockImplementation((url: string, data: Blob) => {
    if (!ingest.beaconAccepts) return false;
    // Blob.text() is async; the test reads the recorded promise's result after awaiting
    const upload: Upload = {
      at: Date.now(),
      via: "beacon",
      url,
      headers: {},
      keepalive: true,
      events: [],
      bytes: data.size,
    };
    ingest.uploads.push(upload);
    void data.text().then((text) => {
      upload.events = JSON.parse(text) as TrackingRecord[];
    });
    return true;
  });
  vi.stubGlobal("fetch", ingest.fetchMock);
  Object.defineProperty(navigator, "sendBeacon", { value: ingest.beaconMock, configurable: true });
  if (options.start !== false) init(CONFIG);
  return ingest;
}

export function teardown(): void {
  destroy();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  delete window.MeridianBridge;
}

export function setVisibility(state: "visible" | "hidden", dispatch = true): void {
  Object.defineProperty(document, "visibilityState", { value: state, configurable: true });
  if (dispatch) document.dispatchEvent(new Event("visibilitychange", { bubbles: true }));
}

/** Lets pending promises (Blob reads, fetch answers) settle without moving the clock. */
export async function settle(): Promise<void> {
  for (let i = 0; i < 5; i++) await vi.advanceTimersByTimeAsync(0);
}

/** An IntersectionObserver whose callback the test fires by hand. */
export function fakeIntersectionObserver(): { fire(el: Element): void; observed: Set<Element> } {
  const observed = new Set<Element>();
  let callback: IntersectionObserverCallback | undefined;
  class FakeObserver {
    constructor(cb: IntersectionObserverCallback) {
      callback = cb;
    }
    observe(el: Element) {
      observed.add(el);
    }
    unobserve(el: Element) {
      observed.delete(el);
    }
    disconnect() {
      observed.clear();
    }
    takeRecords() {
      return [];
    }
  }
  vi.stubGlobal("IntersectionObserver", FakeObserver);
  return {
    observed,
    fire(el: Element) {
      const entry = {
        target: el,
        isIntersecting: true,
        intersectionRatio: 1,
      } as unknown as IntersectionObserverEntry;
      callback?.([entry], {} as IntersectionObserver);
    },
  };
}

import { BATCH_MAX, BEACON_MAX_BYTES, CONFIG_PATH } from "./constants.ts";
import { byteLength, queryParam } from "./util.ts";

/**
 * The bridge the native apps inject into their web views. Each call carries one
 * event (with its context) as a JSON string, because Android's JavascriptInterface
 * only passes strings; iOS injects an object of the same shape that forwards to its
 * message handler. Throwing means "not taken": the event is retried later.
 */
export interface MeridianBridge {
  postEvent(eventJson: string): void;
}

declare global {
  interface Window {
    MeridianBridge?: MeridianBridge;
  }
}

export function appBridge(): MeridianBridge | undefined {
  const bridge = window.MeridianBridge;
  return typeof bridge?.postEvent === "function" ? bridge : undefined;
}

export interface UploadSwitch {
  on: boolean;
  userId: string;
  ip: string;
}

interface ConfigAnswer {
  code?: string;
  data?: ConfigAnswer;
  clientCommonConfig?: { eventLogUploadSwitch?: boolean; userId?: string | null };
  localVo?: { ip?: string | null } | null;
}

/** `POST {configBase}/v1/mix/public/clientCommonConfig`; rejects when it cannot be read. */
export async function fetchSwitch(configBase: string): Promise<UploadSwitch> {
  const response = await fetch(configBase + CONFIG_PATH, { method: "POST", credentials: "include" });
  if (!response.ok) throw new Error(`config HTTP ${response.status}`);
  const body = (await response.json()) as ConfigAnswer;
  if (body.code && body.code !== "00000" && body.code !== "200") throw new Error(`config code ${body.code}`);
  const data = body.data ?? body;
  const config = data.clientCommonConfig;
  if (!config) throw new Error("config without clientCommonConfig");
  return {
    on: config.eventLogUploadSwitch === true,
    userId: config.userId ?? "",
    ip: data.localVo?.ip ?? "",
  };
}

/** Upload headers: JSON, plus `pfb` when the page URL carries a pfb query parameter. */
export function uploadHeaders(): Record<string, string> {
  const pfb = queryParam("pfb");
  return pfb ? { "content-type": "application/json", pfb } : { "content-type": "application/json" };
}

/** Posts one batch; resolves with the HTTP status, 0 when the request itself failed. */
export function post(url: string, body: string, keepalive: boolean): Promise<number> {
  return fetch(url, {
    method: "POST",
    headers: uploadHeaders(),
    body,
    keepalive,
    credentials: "include",
  }).then(
    (response) => response.status,
    () => 0,
  );
}

/**
 * Splits items into JSON arrays of at most 50 items and 64 KiB each. An item larger
 * than the limit on its own travels alone (and cannot go by beacon).
 */
export function splitBodies<T>(items: T[], stamp: (item: T) => unknown): { items: T[]; body: string }[] {
  const out: { items: T[]; body: string }[] = [];
  let group: T[] = [];
  let parts: string[] = [];
  let size = 2;
  const close = () => {
    if (group.length) out.push({ items: group, body: `[${parts.join(",")}]` });
    group = [];
    parts = [];
    size = 2;
  };
  for (const item of items) {
    const json = JSON.stringify(stamp(item));
    const bytes = byteLength(json) + 1;
    if (group.length && (group.length >= BATCH_MAX || size + bytes > BEACON_MAX_BYTES)) close();
    group.push(item);
    parts.push(json);
    size += bytes;
  }
  close();
  return out;
}

/** Queues a body with `navigator.sendBeacon`; false when the browser refused it. */
export function beacon(url: string, body: string): boolean {
  try {
    return navigator.sendBeacon(url, new Blob([body], { type: "application/json" }));
  } catch {
    return false;
  }
}

import {
  AUDIO_CAP_MS,
  COOKIE_DEVICE,
  COOKIE_MARKERS_MAX,
  KEY_EVENT_UID,
  KEY_FINGERPRINT,
  TAB_CHANNEL,
  TAB_SYNC_MS,
} from "./constants.ts";
import { debug, digits, getItem, now, readCookie, setItem } from "./util.ts";

/** `w-` + 9 digits + ms timestamp + 9 digits (docs/product.md §3). */
export function newEventUid(): string {
  return `w-${digits(9)}${now()}${digits(9)}`;
}

/** The visitor's anonymous uid, created once and kept in local storage. */
export function eventUid(): string {
  let uid = getItem(KEY_EVENT_UID);
  if (!uid) {
    uid = newEventUid();
    setItem(KEY_EVENT_UID, uid);
  }
  return uid;
}

/** device id + ms timestamp + random integer 0-100 (docs/product.md §9). */
export function newSessionId(deviceId: string): string {
  return `${deviceId}${now()}${Math.floor(Math.random() * 101)}`;
}

/** 64-bit string hash (two 32-bit lanes), 16 hex digits. */
export function hash(text: string): string {
  let a = 0xdeadbeef;
  let b = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 2654435761);
    b = Math.imul(b ^ c, 1597334677);
  }
  a = Math.imul(a ^ (a >>> 16), 2246822507) ^ Math.imul(b ^ (b >>> 13), 3266489909);
  b = Math.imul(b ^ (b >>> 16), 2246822507) ^ Math.imul(a ^ (a >>> 13), 3266489909);
  return (b >>> 0).toString(16).padStart(8, "0") + (a >>> 0).toString(16).padStart(8, "0");
}

function sleep<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => setTimeout(resolve, ms, value));
}

type AudioCtor = new (channels: number, length: number, rate: number) => OfflineAudioContext;

/** Sum of a rendered compressed oscillator: varies with the audio stack. Capped at 500 ms. */
function audioPart(): Promise<string> {
  const w = window as unknown as { OfflineAudioContext?: AudioCtor; webkitOfflineAudioContext?: AudioCtor };
  const Ctor = w.OfflineAudioContext ?? w.webkitOfflineAudioContext;
  if (!Ctor) return Promise.resolve("");
  const render = new Promise<string>((resolve) => {
    const ctx = new Ctor(1, 5000, 44100);
    const osc = ctx.createOscillator();
    const comp = ctx.createDynamicsCompressor();
    osc.type = "triangle";
    osc.frequency.value = 10000;
    osc.connect(comp);
    comp.connect(ctx.destination);
    osc.start(0);
    ctx.startRendering().then(
      (buffer) => {
        const data = buffer.getChannelData(0);
        let sum = 0;
        for (let i = 4500; i < data.length; i++) sum += Math.abs(data[i] ?? 0);
        resolve(String(sum));
      },
      () => resolve(""),
    );
  }).catch(() => "");
  return Promise.race([render, sleep(AUDIO_CAP_MS, "")]);
}

/**
 * The fingerprint: a hash of what the spec names and nothing more: navigator and
 * screen traits, time zone and the audio stack. No canvas, WebGL or font probing.
 */
export async function fingerprint(): Promise<string> {
  const n = navigator as Navigator & { deviceMemory?: number };
  const s = screen;
  const parts = [
    n.userAgent,
    n.language,
    n.languages?.join(","),
    n.platform,
    n.hardwareConcurrency,
    n.deviceMemory,
    `${s.width}x${s.height}x${s.colorDepth}`,
    devicePixelRatio,
    Intl.DateTimeFormat().resolvedOptions().timeZone,
    n.maxTouchPoints,
    await audioPart(),
  ];
  return hash(parts.join("|"));
}

/**
 * Stores the device id in a cookie on the widest domain that accepts it, so the
 * regional sub-domains share it, widest first (`example.com`, then `www.example.com`).
 * At most 10 cookie writes (the spec's "cookie markers" cap): 9 domain levels, then
 * the host itself as the last resort.
 */
export function writeDeviceCookie(id: string, hostname = location.hostname): void {
  try {
    const labels = hostname.split(".");
    const tail = `=${encodeURIComponent(id)}; path=/; max-age=63072000; SameSite=Lax`;
    const tries = Math.min(labels.length, COOKIE_MARKERS_MAX);
    for (let i = 2; i <= tries; i++) {
      // biome-ignore lint/suspicious/noDocumentCookie: the domain probe needs a synchronous write and read-back; cookieStore is async and missing in older Safari
      document.cookie = `${COOKIE_DEVICE}${tail}; domain=${labels.slice(-i).join(".")}`;
      if (readCookie(COOKIE_DEVICE) === id) return;
    }
    // biome-ignore lint/suspicious/noDocumentCookie: as above
    document.cookie = COOKIE_DEVICE + tail;
  } catch (error) {
    debug(error);
  }
}

/** A device id stored earlier, in local storage or in the cookie. */
export function storedDeviceId(): string {
  return getItem(KEY_FINGERPRINT) || readCookie(COOKIE_DEVICE);
}

interface TabMessage {
  q?: 1;
  id?: string;
}

/**
 * Answers other tabs asking for the device id, and asks them when this tab has none
 * (storage partitioned or cleared while they stayed open). Waits at most 1 s.
 */
export function tabSync(getId: () => string): { ask: () => Promise<string>; close: () => void } {
  let channel: BroadcastChannel | undefined;
  const waiters: ((id: string) => void)[] = [];
  try {
    channel = new BroadcastChannel(TAB_CHANNEL);
    channel.onmessage = (event: MessageEvent<TabMessage>) => {
      const id = getId();
      if (event.data?.q && id) channel?.postMessage({ id } satisfies TabMessage);
      if (event.data?.id) for (const wake of waiters.splice(0)) wake(event.data.id);
    };
  } catch (error) {
    debug(error);
  }
  return {
    ask: () => {
      if (!channel) return Promise.resolve("");
      channel.postMessage({ q: 1 } satisfies TabMessage);
      return Promise.race([new Promise<string>((resolve) => waiters.push(resolve)), sleep(TAB_SYNC_MS, "")]);
    },
    close: () => channel?.close(),
  };
}

/**
 * Resolves the device id: stored, else another tab's, else the fingerprint. Persists
 * it in local storage and the cookie.
 */
export async function resolveDeviceId(ask: () => Promise<string>): Promise<string> {
  let id = storedDeviceId();
  if (!id) {
    const [fromTab, own] = await Promise.all([ask(), fingerprint()]);
    // another tab may have finished first while this one was computing
    id = fromTab || getItem(KEY_FINGERPRINT) || own;
  }
  setItem(KEY_FINGERPRINT, id);
  if (readCookie(COOKIE_DEVICE) !== id) writeDeviceCookie(id);
  return id;
}

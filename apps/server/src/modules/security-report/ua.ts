/**
 * A few words for a user agent in the admin list ("Chrome 131 on Windows"): browser with
 * its major version, then the system. Order matters: Edge and Opera also say Chrome,
 * Chrome also says Safari, every Android browser says Linux.
 */
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, "Edge"],
  [/\b(?:OPR|Opera)\/(\d+)/, "Opera"],
  [/\bSamsungBrowser\/(\d+)/, "Samsung Internet"],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, "Firefox"],
  [/\bHeadlessChrome\/(\d+)/, "Headless Chrome"],
  [/\b(?:Chrome|CriOS|Chromium)\/(\d+)/, "Chrome"],
  [/\bVersion\/(\d+)(?:[.\d]*) (?:Mobile\/\S+ )?Safari\//, "Safari"],
];

const SYSTEMS: readonly [RegExp, string][] = [
  [/\bAndroid\b/, "Android"],
  [/\b(?:iPhone|iPad|iPod)\b/, "iOS"],
  [/\bWindows\b/, "Windows"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

/** Browser (with its major version) and system, each "" when unknown. */
export function describeUserAgent(ua: string): { browser: string; os: string } {
  if (ua.trim() === "") return { browser: "", os: "" };
  const summary = summarizeUserAgent(ua);
  const os = SYSTEMS.find(([re]) => re.test(ua))?.[1] ?? "";
  return { browser: os === "" ? summary : summary.slice(0, -` on ${os}`.length), os };
}

export function summarizeUserAgent(ua: string): string {
  if (ua.trim() === "") return "";
  let browser: string | undefined;
  for (const [re, name] of BROWSERS) {
    const m = re.exec(ua);
    if (m) {
      browser = `${name} ${m[1]}`;
      break;
    }
  }
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser === undefined) {
    const bot = /\b([A-Za-z][\w-]*(?:bot|spider|crawler))\b/i.exec(ua)?.[1];
    browser = bot ?? ua.split(/[\s/]/)[0]?.slice(0, 40) ?? "";
  }
  return system === undefined ? browser : `${browser} on ${system}`;
}

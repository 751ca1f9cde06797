import { findLocale } from "@meridian/contracts";
import { MAIL_TEXT, type MailText } from "./mail-text.ts";

/** Which security setting a `setting` message names. */
export type SettingName = "antiPhishing" | "email" | "phone" | "google" | "recoveryCodes" | "passkeys";

/** Every account message the server sends, with what it needs to say. */
export type MailKind =
  | { kind: "code"; code: string }
  | { kind: "existing" }
  | { kind: "password"; time: number; ip: string; device: string }
  | { kind: "device"; time: number; ip: string; device: string }
  | { kind: "setting"; setting: SettingName; time: number };

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const SETTING_KEY: Record<SettingName, keyof MailText> = {
  antiPhishing: "settingAntiPhishing",
  email: "settingEmail",
  phone: "settingPhone",
  google: "settingGoogle",
  recoveryCodes: "settingRecoveryCodes",
  passkeys: "settingPasskeys",
};

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c,
  );
}

function fill(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}

/** `2026-11-27 11:40`: the same in every language, with "(UTC)" after it in the sentence. */
function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace("T", " ");
}

/** The translation set for a site locale (regional sites share their base language's). */
export function mailText(locale: string): MailText {
  const content = findLocale(locale)?.content ?? "en";
  return MAIL_TEXT[content] ?? MAIL_TEXT.en ?? (Object.values(MAIL_TEXT)[0] as MailText);
}

/**
 * Renders one message in the user's locale as text and HTML. The anti-phishing code, once
 * set, heads both, so a user can tell a real message from a forged one.
 */
export function renderMail(message: MailKind, locale: string, antiPhishingCode: string): RenderedMail {
  const t = mailText(locale);
  let subject: string;
  let body: string;
  switch (message.kind) {
    case "code":
      subject = t.codeSubject;
      body = fill(t.codeBody, { code: message.code });
      break;
    case "existing":
      subject = t.existingSubject;
      body = t.existingBody;
      break;
    case "password":
      subject = t.passwordSubject;
      body = fill(t.passwordBody, { time: formatTime(message.time), ip: message.ip, device: message.device });
      break;
    case "device":
      subject = t.deviceSubject;
      body = fill(t.deviceBody, { time: formatTime(message.time), ip: message.ip, device: message.device });
      break;
    case "setting":
      subject = t.settingSubject;
      body = fill(t.settingBody, {
        setting: t[SETTING_KEY[message.setting]],
        time: formatTime(message.time),
      });
      break;
  }
  const phishing = antiPhishingCode === "" ? undefined : fill(t.antiPhishing, { code: antiPhishingCode });
  const text = [phishing, body, "", t.footer].filter((line) => line !== undefined).join("\n");
  const dir = findLocale(locale)?.dir ?? "ltr";
  const lang = findLocale(locale)?.htmlLang ?? "en";
  const html = `<!doctype html>
<html lang="${escapeHtml(lang)}" dir="${dir}"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f5f6f8;font-family:Arial,Helvetica,sans-serif;color:#1f2329">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px" cellpadding="24"><tr><td>
<p style="margin:0 0 16px;font-size:20px;font-weight:bold">Meridian</p>
${
  phishing === undefined
    ? ""
    : `<p style="margin:0 0 16px;padding:8px 12px;background:#fff7e6;border-radius:4px;font-weight:bold" data-anti-phishing>${escapeHtml(phishing)}</p>\n`
}<p style="margin:0 0 16px;font-size:15px;line-height:1.6">${escapeHtml(body)}</p>
<p style="margin:0;font-size:12px;color:#86909c">${escapeHtml(t.footer)}</p>
</td></tr></table></body></html>`;
  return { subject, text, html };
}

import { getLocale } from "@meridian/contracts/locales";

/**
 * USD -> fiat rates for display, as decimal strings. NOTE: a seeded table: there is no
 * rates service yet. When one exists, load its table in the loaders and pass it here.
 */
export const USD_RATES: Readonly<Record<string, string>> = {
  USD: "1",
  CNY: "7.12",
  JPY: "152.4",
  VND: "25350",
  TWD: "32.1",
  RUB: "92.5",
  EUR: "0.93",
  IDR: "15950",
  UAH: "41.3",
  UZS: "12850",
  AED: "3.6725",
  PHP: "58.2",
  CAD: "1.39",
};

const SCALE = 12;
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

function toScaled(text: string): bigint | null {
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const frac = (m[2] ?? "").slice(0, SCALE).padEnd(SCALE, "0");
  return BigInt((m[1] ?? "0") + frac);
}

function fromScaled(v: bigint): string {
  const digits = v.toString().padStart(SCALE + 1, "0");
  const whole = digits.slice(0, -SCALE);
  const frac = digits.slice(-SCALE).replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : whole;
}

/** Exact decimal product of a USD amount and a rate, both decimal strings. */
export function convertUsd(amount: string, currency: string): { value: string; currency: string } {
  const rate = USD_RATES[currency];
  const a = toScaled(amount);
  const r = rate === undefined ? null : toScaled(rate);
  if (a === null || r === null) return { value: amount, currency: "USD" };
  return { value: fromScaled((a * r) / 10n ** BigInt(SCALE)), currency };
}

type NumericString = `${number}`;

/**
 * Intl formatters by options: building one costs far more than using it (locale data
 * lookup), and a list page formats hundreds of amounts while it renders and hydrates.
 * The key space is small (locales x currencies x a few shapes).
 */
const formatters = new Map<string, Intl.NumberFormat | Intl.DateTimeFormat>();

function cachedFormat<F extends Intl.NumberFormat | Intl.DateTimeFormat>(key: string, make: () => F): F {
  let format = formatters.get(key) as F | undefined;
  if (!format) {
    format = make();
    formatters.set(key, format);
  }
  return format;
}

/**
 * Formats a decimal-string amount in a currency for a site locale. Amounts below 1 keep
 * four significant digits (token prices such as 0.00013); others two decimals. The
 * string goes to Intl as is, so no float rounding creeps in.
 */
export function formatMoney(amount: string, currency: string, locale: string): string {
  const lang = getLocale(locale).htmlLang;
  const scaled = toScaled(amount);
  const small = scaled !== null && scaled < 10n ** BigInt(SCALE);
  const format = cachedFormat(
    `${lang}|${currency}|${small ? "s" : "f"}`,
    () =>
      new Intl.NumberFormat(lang, {
        style: "currency",
        currency,
        ...(small ? { maximumSignificantDigits: 4 } : { maximumFractionDigits: 2 }),
      }),
  );
  return format.format(amount as NumericString);
}

/** USD amount shown in the visitor's fiat. */
export function formatFiat(usd: string, fiat: string, locale: string): string {
  const { value, currency } = convertUsd(usd, fiat);
  return formatMoney(value, currency, locale);
}

/** Large USD figures (market cap) in compact notation: $1.9T. */
export function formatCompactUsd(usd: string, fiat: string, locale: string): string {
  const { value, currency } = convertUsd(usd, fiat);
  const lang = getLocale(locale).htmlLang;
  const format = cachedFormat(
    `${lang}|${currency}|compact`,
    () =>
      new Intl.NumberFormat(lang, {
        style: "currency",
        currency,
        notation: "compact",
        maximumFractionDigits: 2,
      }),
  );
  return format.format(value as NumericString);
}

/** A UTC calendar date in the locale's words; identical on server and browser. */
export function formatDate(ms: number | null, locale: string): string {
  if (ms === null) return "";
  const lang = getLocale(locale).htmlLang;
  return cachedFormat(
    `${lang}|date`,
    () => new Intl.DateTimeFormat(lang, { dateStyle: "medium", timeZone: "UTC" }),
  ).format(ms);
}

/** Date and time in UTC, with the zone named. */
export function formatDateTime(ms: number, locale: string): string {
  // dateStyle cannot be combined with timeZoneName, so the zone is named by hand.
  const lang = getLocale(locale).htmlLang;
  const text = cachedFormat(
    `${lang}|datetime`,
    () =>
      new Intl.DateTimeFormat(lang, {
        dateStyle: "medium",
        timeStyle: "short",
        timeZone: "UTC",
        hourCycle: "h23",
      }),
  ).format(ms);
  return `${text} UTC`;
}

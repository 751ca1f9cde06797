import { getLocale } from "@meridian/contracts/locales";

/**
 * Language names and dates are formatted in the loader (server) and shipped as text, so
 * the browser's ICU data never disagrees with the server's during hydration.
 */
export function languageNames(codes: readonly string[], locale: string): string[] {
  const tag = getLocale(locale).htmlLang;
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([tag, "en"], { type: "language" });
  } catch {
    names = undefined;
  }
  return codes.map((code) => {
    try {
      return names?.of(code) ?? code;
    } catch {
      return code;
    }
  });
}

export function formatDate(ms: number, locale: string): string {
  return new Intl.DateTimeFormat([getLocale(locale).htmlLang, "en"], {
    year: "numeric",
    month: "short",
    day: "numeric",
    timeZone: "UTC",
  }).format(ms);
}

/** Rating formatters per language: a list renders dozens of cards, and making one costs far more than using it. */
const ratingFormats = new Map<string, Intl.NumberFormat>();

/** One decimal with the locale's separator ("4.5", "4,5"), Latin digits on server and browser alike. */
export function formatRating(value: number, locale: string): string {
  const lang = getLocale(locale).htmlLang;
  let format = ratingFormats.get(lang);
  if (!format) {
    format = new Intl.NumberFormat([lang, "en"], {
      minimumFractionDigits: 1,
      maximumFractionDigits: 1,
      numberingSystem: "latn",
    });
    ratingFormats.set(lang, format);
  }
  return format.format(value);
}

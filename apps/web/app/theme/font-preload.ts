import interCyrillic from "@fontsource-variable/inter/files/inter-cyrillic-wght-normal.woff2?url";
import interLatin from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import interVietnamese from "@fontsource-variable/inter/files/inter-vietnamese-wght-normal.woff2?url";
import notoArabic from "@fontsource-variable/noto-sans-arabic/files/noto-sans-arabic-arabic-wght-normal.woff2?url";

/** The file of each language's own letters, by locale code (Latin comes with every page). */
const SCRIPT_FILE: Readonly<Record<string, string>> = {
  ru: interCyrillic,
  uk: interCyrillic,
  vi: interVietnamese,
  ar: notoArabic,
};

/**
 * Font files a page in `localeCode` paints its text with, for `<link rel="preload">`:
 * fetched with the stylesheet instead of after it, they are in before first paint on a
 * usual connection and the fallback faces rarely show. The URLs are the build's hashed
 * ones, the same the stylesheet's @font-face rules point to (fonts.css).
 *
 * Every page has Latin (the brand, digits, tickers); a language written in another script
 * adds the file of its letters. Latin-ext (Polish, Uzbek letters) is not preloaded: a few
 * letters of a page, 85 KB; they swap in when it arrives.
 */
export function fontPreloads(localeCode: string): string[] {
  const script = SCRIPT_FILE[localeCode];
  return script === undefined ? [interLatin] : [interLatin, script];
}

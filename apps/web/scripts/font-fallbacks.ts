/**
 * The metric-adjusted fallback faces of app/styles/fonts.css, computed from the Inter file
 * we ship and the metrics of the local fonts a visitor may have instead (Capsize's data).
 *
 * Text first paints in the fallback and swaps to Inter when its file arrives
 * (`font-display: swap`). Scaled by `size-adjust` to Inter's average lowercase width, and
 * given Inter's ascent, descent and line gap, a fallback takes the room Inter will take, so
 * the swap moves nothing. Capsize's `createFontStack` does the arithmetic:
 *
 *   size-adjust      = (inter.xWidthAvg / inter.unitsPerEm) / (local.xWidthAvg / local.unitsPerEm)
 *   ascent-override  = inter.ascent / (inter.unitsPerEm * size-adjust)
 *   descent-override = |inter.descent| / (inter.unitsPerEm * size-adjust)
 *   line-gap-override = inter.lineGap / (inter.unitsPerEm * size-adjust)
 *
 * `npx node apps/web/scripts/font-fallbacks.ts` prints the faces; fonts.test.ts checks that
 * the stylesheet holds these figures.
 */
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { createFontStack, type FontMetrics } from "@capsizecss/core";
import arial from "@capsizecss/metrics/arial";
import notoSans from "@capsizecss/metrics/notoSans";
import roboto from "@capsizecss/metrics/roboto";
import { fromFile } from "@capsizecss/unpack/fs";

/** The Latin file of the shipped Inter: the one every page's text (and the metrics) comes from. */
export const INTER_LATIN_FILE = "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2";

export interface FallbackFace {
  /** The @font-face family name in the stylesheet and the font stack. */
  family: string;
  /** `local()` names: full and PostScript names of the font and of metric-compatible clones. */
  local: readonly string[];
  /** The same for its bold: a face of its own, or bold text would be the regular's synthetic bold. */
  localBold: readonly string[];
  metrics: FontMetrics;
}

/**
 * Arial is on Windows, macOS, iOS and ChromeOS (Arimo and Liberation Sans have its widths,
 * for Linux); Roboto is Android's; Noto Sans is what a Debian or Ubuntu desktop (and CI)
 * has. Each needs its own figures, so each is a family of its own in the stack.
 */
export const FALLBACKS: readonly FallbackFace[] = [
  {
    family: "Inter Fallback Arial",
    local: ["Arial", "ArialMT", "Arimo", "Liberation Sans"],
    localBold: ["Arial Bold", "Arial-BoldMT", "Arimo Bold", "Liberation Sans Bold"],
    metrics: arial,
  },
  {
    family: "Inter Fallback Roboto",
    local: ["Roboto", "Roboto Regular", "Roboto-Regular"],
    localBold: ["Roboto Bold", "Roboto-Bold"],
    metrics: roboto,
  },
  {
    family: "Inter Fallback Noto Sans",
    local: ["Noto Sans Regular", "NotoSans-Regular"],
    localBold: ["Noto Sans Bold", "NotoSans-Bold"],
    metrics: notoSans,
  },
];

export interface FallbackDescriptors {
  family: string;
  /** 400 or 700: weights up to 500 take the regular, 600 and up the bold (CSS font matching). */
  weight: string;
  src: string;
  sizeAdjust: string;
  ascentOverride: string;
  descentOverride: string;
  lineGapOverride: string;
}

/** The descriptors of every fallback face, from the Inter file in node_modules. */
export async function fallbackDescriptors(): Promise<FallbackDescriptors[]> {
  const require = createRequire(import.meta.url);
  const inter = await fromFile(require.resolve(INTER_LATIN_FILE));
  return FALLBACKS.flatMap((fallback) => {
    const [face] = createFontStack([inter, fallback.metrics], { fontFaceFormat: "styleObject" }).fontFaces;
    const d = face?.["@font-face"];
    if (d === undefined) throw new Error(`no fallback face computed for ${fallback.family}`);
    // The bold takes the regular's figures: Capsize has the regulars' metrics, and a
    // family's bold shares its vertical metrics.
    const figures = {
      sizeAdjust: String(d.sizeAdjust ?? "100%"),
      ascentOverride: String(d.ascentOverride),
      descentOverride: String(d.descentOverride),
      // Capsize leaves it out when both fonts have the same line gap; the face states it anyway.
      lineGapOverride: String(d.lineGapOverride ?? `${(inter.lineGap / inter.unitsPerEm) * 100}%`),
    };
    const src = (names: readonly string[]) => names.map((name) => `local("${name}")`).join(", ");
    return [
      { family: fallback.family, weight: "400", src: src(fallback.local), ...figures },
      { family: fallback.family, weight: "700", src: src(fallback.localBold), ...figures },
    ];
  });
}

export function fallbackCss(faces: readonly FallbackDescriptors[]): string {
  return faces
    .map((f) =>
      [
        "@font-face {",
        `  font-family: "${f.family}";`,
        `  font-weight: ${f.weight};`,
        `  src: ${f.src};`,
        `  size-adjust: ${f.sizeAdjust};`,
        `  ascent-override: ${f.ascentOverride};`,
        `  descent-override: ${f.descentOverride};`,
        `  line-gap-override: ${f.lineGapOverride};`,
        "}",
      ].join("\n"),
    )
    .join("\n\n");
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(fallbackCss(await fallbackDescriptors()));
}

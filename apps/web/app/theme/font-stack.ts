/**
 * The interface font stack, for the site stylesheet (app.css `body`, which must spell the
 * same list: font-stack.test.ts compares them) and for antd's `fontFamily` token.
 *
 * 1. Inter and Noto Sans Arabic, shipped with the site (app/styles/fonts.css): every
 *    visitor sees the same letters, whatever their machine has, so layouts (the header's
 *    sections at 1280 px) measure the same everywhere.
 * 2. Until a file arrives (`font-display: swap`), local fonts with Inter's metrics: the
 *    first of Arial, Roboto and Noto Sans the machine has (fonts.css, "Fallback faces").
 * 3. System fonts for what the shipped faces do not cover: CJK (every desktop and phone
 *    system has one; a web CJK face would be megabytes) and any rare script.
 */
export const FONT_FAMILY = [
  '"Inter Variable"',
  '"Noto Sans Arabic Variable"',
  '"Inter Fallback Arial"',
  '"Inter Fallback Roboto"',
  '"Inter Fallback Noto Sans"',
  "-apple-system",
  "BlinkMacSystemFont",
  '"Segoe UI"',
  "Roboto",
  '"Helvetica Neue"',
  "Arial",
  '"Noto Sans"',
  '"Noto Sans Arabic"',
  '"PingFang SC"',
  '"Hiragino Sans"',
  '"Microsoft YaHei"',
  "sans-serif",
].join(", ");

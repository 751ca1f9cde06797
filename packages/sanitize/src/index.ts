export { compact, decodeEntities, decodePercent, deepDecode, stripControls } from "./decode.ts";
export {
  ALLOWED_ATTRIBUTES,
  ALLOWED_TAGS,
  DROPPED_WITH_CONTENT,
  type SanitizeHtmlOptions,
  sanitizeHtml,
} from "./html.ts";
export {
  DEFAULT_PRODUCT_DOMAIN_PATTERNS,
  isProductHost,
  type ProductLinkOptions,
  rewriteProductLink,
} from "./product-link.ts";
export { DEFAULT_APP_SCHEMES, sanitizeUrl, type UrlPolicy } from "./url.ts";

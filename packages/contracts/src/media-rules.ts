/**
 * Images of airdrops and apps (docs/product.md "Images"): API paths, roles, widths and
 * limits shared by the server's media module and the pages. No zod here: content pages
 * import this without the schema library.
 */

export const MEDIA_API = {
  /** POST multipart (`role`, `file`): administrators upload one image. */
  upload: "/v1/admin/media/uploads",
  /** GET / PUT the images of one airdrop or app. */
  links: "/v1/admin/media/links/:owner/:slug",
  /** GET one encoded variant: `<id>-<width>.webp`, content-addressed, cached forever. */
  file: "/v1/media/:file",
} as const;

/** Fills `:name` segments of a MEDIA_API path. */
export function mediaPath(template: string, params: Record<string, string | number>): string {
  return template.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? "")));
}

export const MEDIA_OWNERS = ["airdrop", "app"] as const;
export type MediaOwner = (typeof MEDIA_OWNERS)[number];

export const MEDIA_ROLES = ["logo", "cover", "screenshot"] as const;
export type MediaRole = (typeof MEDIA_ROLES)[number];

/** Widths (CSS pixels x density) each role is encoded at; never larger than the source. */
export const MEDIA_WIDTHS: Record<MediaRole, readonly number[]> = {
  logo: [64, 128, 256],
  cover: [480, 960, 1600],
  screenshot: [240, 480, 720],
};

/** Largest accepted upload, bytes. */
export const MEDIA_MAX_BYTES = 8 * 1024 * 1024;
/** Largest decoded image, pixels (width x height): a small file that inflates past this is refused. */
export const MEDIA_MAX_PIXELS = 40_000_000;
/** Smallest accepted side, pixels. */
export const MEDIA_MIN_SIDE = 32;
/** Screenshots per item. */
export const MEDIA_MAX_SCREENSHOTS = 8;

/** One image in every encoded width: `src` is the largest, `srcset` lists them all. */
export interface ResponsiveImage {
  src: string;
  srcset: string;
  /** Intrinsic size of the largest variant (for width/height attributes: no layout shift). */
  width: number;
  height: number;
}

/** The images of one airdrop or app. Summaries carry the logo only. */
export interface ProjectImages {
  logo: ResponsiveImage | null;
  cover: ResponsiveImage | null;
  screenshots: ResponsiveImage[];
}

/** One stored image as the upload answers it. */
export interface MediaAsset {
  id: string;
  role: MediaRole;
  width: number;
  height: number;
  variants: { width: number; height: number; url: string; bytes: number }[];
  image: ResponsiveImage;
}

/** The asset ids linked to one airdrop or app (the admin editor's model). */
export interface MediaLinks {
  logo: string | null;
  cover: string | null;
  screenshots: string[];
}

export interface MediaLinksResult {
  links: MediaLinks;
  images: ProjectImages;
}

/** `sizes` for the places an image is shown. */
export const MEDIA_SIZES = {
  logoSmall: "32px",
  logoLarge: "96px",
  cover: "(max-width: 760px) 100vw, 760px",
  screenshot: "(max-width: 600px) 60vw, 240px",
} as const;

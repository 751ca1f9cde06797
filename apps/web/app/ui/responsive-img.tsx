import type { ResponsiveImage } from "@meridian/contracts/media-rules";

interface ResponsiveImgProps {
  image: ResponsiveImage;
  /** CSS size the image is shown at (`sizes`): the browser picks the width from `srcset`. */
  sizes: string;
  alt: string;
  className?: string;
  /** Box the image reserves (CSS pixels); defaults to the image's own size. */
  width?: number;
  height?: number;
  /** Above the fold: load at once and early. */
  eager?: boolean;
}

/** An uploaded or generated image in every encoded width (docs/product.md "Images"). */
export function ResponsiveImg({
  image,
  sizes,
  alt,
  className,
  width,
  height,
  eager = false,
}: ResponsiveImgProps) {
  const w = width ?? image.width;
  const h = height ?? Math.round((w * image.height) / image.width);
  return (
    <img
      className={className}
      src={image.src}
      srcSet={image.srcset}
      sizes={sizes}
      alt={alt}
      width={w}
      height={h}
      loading={eager ? "eager" : "lazy"}
      decoding="async"
      {...(eager ? { fetchPriority: "high" as const } : {})}
    />
  );
}

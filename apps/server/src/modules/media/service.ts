import {
  Code,
  MEDIA_API,
  type MediaAsset,
  type MediaLinks,
  type MediaLinksResult,
  type MediaOwner,
  type MediaRole,
  mediaPath,
  type ProjectImages,
  type ResponsiveImage,
} from "@meridian/contracts";
import type { Db } from "../../platform/db/types.ts";
import { AppError, errors } from "../../platform/errors.ts";
import { type ProcessedImage, processUpload, renderSvg } from "./pipeline.ts";
import type { AssetRow, MediaRepo } from "./repo.ts";
import { type ArtworkSource, registerGenerated } from "./seed.ts";
import type { MediaStorage } from "./storage.ts";

export const WEBP = "image/webp";

export const fileName = (id: string, width: number) => `${id}-${width}.webp`;
export const fileUrl = (id: string, width: number) =>
  mediaPath(MEDIA_API.file, { file: fileName(id, width) });

/** `src` (the widest), `srcset` (every width) and the intrinsic size of an asset. */
export function responsiveImage(a: Pick<AssetRow, "id" | "widths" | "heights">): ResponsiveImage | null {
  const last = a.widths.length - 1;
  const width = a.widths[last];
  const height = a.heights[last];
  if (width === undefined || height === undefined) return null;
  return {
    src: fileUrl(a.id, width),
    srcset: a.widths.map((w) => `${fileUrl(a.id, w)} ${w}w`).join(", "),
    width,
    height,
  };
}

const EMPTY: ProjectImages = { logo: null, cover: null, screenshots: [] };

export interface MediaServiceDeps {
  /** For registering generated artwork (one transaction per batch). */
  db: Db;
  repo: MediaRepo;
  storage: MediaStorage;
  now?: () => number;
}

export class MediaService {
  readonly #db: Db;
  readonly #repo: MediaRepo;
  readonly #storage: MediaStorage;
  readonly #now: () => number;
  /** One render per generated asset at a time, however many requests ask for it. */
  readonly #rendering = new Map<string, Promise<ProcessedImage | undefined>>();

  constructor(deps: MediaServiceDeps) {
    this.#db = deps.db;
    this.#repo = deps.repo;
    this.#storage = deps.storage;
    this.#now = deps.now ?? Date.now;
  }

  get storageKind(): MediaStorage["kind"] {
    return this.#storage.kind;
  }

  async #store(image: ProcessedImage): Promise<number> {
    let bytes = 0;
    for (const v of image.variants) {
      await this.#storage.put(fileName(image.id, v.width), v.body, WEBP);
      bytes += v.body.length;
    }
    return bytes;
  }

  /** Checks, encodes and stores one upload; the same file uploaded twice is one asset. */
  async upload(bytes: Uint8Array, role: MediaRole): Promise<MediaAsset> {
    const image = await processUpload(bytes, role);
    const total = await this.#store(image);
    const row = {
      id: image.id,
      role,
      width: image.width,
      height: image.height,
      widths: image.variants.map((v) => v.width),
      heights: image.variants.map((v) => v.height),
    };
    await this.#repo.insertAsset({ ...row, bytes: total, sourceSvg: null }, this.#now());
    const responsive = responsiveImage(row);
    if (responsive === null) throw new Error("media: an encoded image without variants");
    return {
      ...row,
      variants: image.variants.map((v) => ({
        width: v.width,
        height: v.height,
        url: fileUrl(image.id, v.width),
        bytes: v.body.length,
      })),
      image: responsive,
    };
  }

  /**
   * The bytes of one variant. Generated artwork is rendered by the same pipeline on its
   * first request and stored, so starting a server with demo data costs no encoding.
   */
  async file(name: string): Promise<Buffer | undefined> {
    const stored = await this.#storage.get(name);
    if (stored !== undefined) return stored;
    const match = /^([a-f0-9]{32})-(\d+)\.webp$/.exec(name);
    if (match === null) return undefined;
    const [, id = "", w = ""] = match;
    const width = Number(w);
    let pending = this.#rendering.get(id);
    if (pending === undefined) {
      pending = this.#render(id).finally(() => this.#rendering.delete(id));
      this.#rendering.set(id, pending);
    }
    const image = await pending;
    return image?.variants.find((v) => v.width === width)?.body;
  }

  async #render(id: string): Promise<ProcessedImage | undefined> {
    const asset = await this.#repo.asset(id);
    if (asset?.sourceSvg == null) return undefined;
    const widest = asset.widths[asset.widths.length - 1] ?? asset.width;
    const image = await renderSvg(asset.sourceSvg, asset.role, widest);
    const bytes = await this.#store({ ...image, id });
    await this.#repo.markRendered(id, bytes);
    return image;
  }

  async links(owner: MediaOwner, slug: string): Promise<MediaLinksResult> {
    const rows = await this.#repo.links(owner, [slug]);
    const links: MediaLinks = { logo: null, cover: null, screenshots: [] };
    for (const r of rows) {
      if (r.role === "screenshot") links.screenshots.push(r.assetId);
      else links[r.role] = r.assetId;
    }
    return { links, images: (await this.imagesFor(owner, [slug], "full")).get(slug) ?? EMPTY };
  }

  /** Replaces the images of one item; every id must be an image uploaded for that role. */
  async setLinks(owner: MediaOwner, slug: string, links: MediaLinks): Promise<MediaLinksResult> {
    const wanted: [MediaRole, string][] = [
      ...(links.logo === null ? [] : [["logo", links.logo] as [MediaRole, string]]),
      ...(links.cover === null ? [] : [["cover", links.cover] as [MediaRole, string]]),
      ...links.screenshots.map((id): [MediaRole, string] => ["screenshot", id]),
    ];
    const found = await this.#repo.assets(wanted.map(([, id]) => id));
    for (const [role, id] of wanted) {
      const asset = found.get(id);
      if (asset === undefined) throw errors.notFound(`No uploaded image ${id}`);
      if (asset.role !== role)
        throw new AppError(
          Code.VALIDATION_FAILED,
          `Image ${id} was uploaded as a ${asset.role}, not a ${role}`,
          {
            status: 422,
          },
        );
    }
    await this.#repo.setLinks(owner, slug, links);
    return this.links(owner, slug);
  }

  /**
   * Items with no image at all (created after the demo seed, or every image removed) get
   * generated artwork, registered once and rendered on first request like the seed's.
   * Answers whether anything was added.
   */
  async ensureGenerated(items: readonly ArtworkSource[]): Promise<boolean> {
    const owners = [...new Set(items.map((i) => i.owner))];
    const missing: ArtworkSource[] = [];
    for (const owner of owners) {
      const mine = items.filter((i) => i.owner === owner);
      const have = await this.#repo.slugsWithLinks(
        owner,
        mine.map((i) => i.slug),
      );
      missing.push(...mine.filter((i) => !have.has(i.slug)));
    }
    return (await registerGenerated(this.#db, missing, this.#now())) > 0;
  }

  /**
   * The images of several items at once (one query for links, one for assets).
   * `logo` answers the logo only: what list rows and cards show.
   */
  async imagesFor(
    owner: MediaOwner,
    slugs: readonly string[],
    scope: "logo" | "full",
  ): Promise<Map<string, ProjectImages>> {
    const rows = await this.#repo.links(owner, slugs, scope === "logo" ? ["logo"] : undefined);
    const assets = await this.#repo.assets(rows.map((r) => r.assetId));
    const out = new Map<string, ProjectImages>();
    for (const r of rows) {
      const asset = assets.get(r.assetId);
      const image = asset === undefined ? null : responsiveImage(asset);
      if (image === null) continue;
      let entry = out.get(r.slug);
      if (entry === undefined) {
        entry = { logo: null, cover: null, screenshots: [] };
        out.set(r.slug, entry);
      }
      if (r.role === "screenshot") entry.screenshots.push(image);
      else entry[r.role] = image;
    }
    return out;
  }
}

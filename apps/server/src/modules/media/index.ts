import type { MediaOwner, ProjectImages } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import type { Seed } from "../../platform/db/seed.ts";
import type { Platform } from "../../platform/platform.ts";
import { mediaConfigFromEnv } from "./config.ts";
import { MediaRepo } from "./repo.ts";
import { mediaRoutes } from "./routes.ts";
import { type ArtworkSource, type ArtworkSubjects, seedMedia } from "./seed.ts";
import { MediaService } from "./service.ts";
import { diskStorage, type MediaStorage, s3Storage } from "./storage.ts";

export { mediaConfigFromEnv } from "./config.ts";
export { MediaService, responsiveImage } from "./service.ts";

// Keyed by the HTTP server every scope of one app shares, so any scope (and a test's root
// instance) finds the service the media module registered.
const services = new WeakMap<object, MediaService>();

export function createMediaStorage(
  platform: Pick<Platform, "config">,
  env: NodeJS.ProcessEnv = process.env,
): MediaStorage {
  const config = mediaConfigFromEnv(env, platform.config.dataDir);
  return config.kind === "disk" ? diskStorage(config.dir) : s3Storage(config);
}

/**
 * The module entry for `src/modules/index.ts`: before the airdrops and apps modules,
 * whose answers carry the images (see `mediaImages`).
 */
export async function mediaModule(app: FastifyInstance, platform: Platform): Promise<void> {
  const storage = createMediaStorage(platform);
  const service = new MediaService({ db: platform.db, repo: new MediaRepo(platform.db), storage });
  services.set(app.server, service);
  app.log.info({ storage: storage.kind }, "media: image storage ready");
  await mediaRoutes(app, service);
}

type WithImages<T> = T & { images?: ProjectImages };

/** What an airdrop or app answer carries that its generated artwork is drawn from. */
export interface ArtworkItem {
  slug: string;
  name: string;
  ticker?: string;
  chain?: string;
  category?: number;
}

const sourceOf = (owner: MediaOwner, i: ArtworkItem): ArtworkSource =>
  owner === "airdrop"
    ? { owner, slug: i.slug, name: i.name, ticker: i.ticker ?? "", chain: i.chain ?? "" }
    : { owner, slug: i.slug, name: i.name, category: i.category ?? 5 };

/** Adds `images` to the answers of another module; a no-op when the media module is not registered. */
export interface ImageAttacher {
  /** List rows and cards: the logo only. */
  logos<T extends ArtworkItem>(owner: MediaOwner, items: readonly T[]): Promise<WithImages<T>[]>;
  /** One item's page: logo, cover and screenshots. */
  full<T extends ArtworkItem>(owner: MediaOwner, item: T): Promise<WithImages<T>>;
}

/** The images of `items`, generated artwork registered first for any item that has none. */
async function imagesWithFallback(
  service: MediaService,
  owner: MediaOwner,
  items: readonly ArtworkItem[],
  scope: "logo" | "full",
): Promise<Map<string, ProjectImages>> {
  const slugs = items.map((i) => i.slug);
  const found = await service.imagesFor(owner, slugs, scope);
  const bare = items.filter((i) => !found.has(i.slug));
  if (bare.length === 0) return found;
  if (!(await service.ensureGenerated(bare.map((i) => sourceOf(owner, i))))) return found;
  return service.imagesFor(owner, slugs, scope);
}

export function mediaImages(app: FastifyInstance): ImageAttacher {
  return {
    async logos(owner, items) {
      const service = services.get(app.server);
      if (service === undefined || items.length === 0) return [...items];
      const found = await imagesWithFallback(service, owner, items, "logo");
      return items.map((i) => {
        const images = found.get(i.slug);
        return images === undefined ? i : { ...i, images };
      });
    },
    async full(owner, item) {
      const service = services.get(app.server);
      if (service === undefined) return item;
      const images = (await imagesWithFallback(service, owner, [item], "full")).get(item.slug);
      return images === undefined ? item : { ...item, images };
    },
  };
}

export type { ArtworkSubjects } from "./seed.ts";

/** Demo artwork for the seeded airdrops and apps (read through `subjects`): listed after their seeds. */
export function mediaSeed(subjects: ArtworkSubjects): Seed {
  return {
    name: "media",
    version: 1,
    seed: async (db, { log }) => {
      const { assets } = await seedMedia(db, subjects);
      log.info({ assets }, "media: demo artwork registered");
    },
  };
}

import type { MediaOwner, ProjectImages } from "@meridian/contracts";
import type { FastifyInstance } from "fastify";
import type { Seed } from "../../platform/db/seed.ts";
import type { Platform } from "../../platform/platform.ts";
import { mediaConfigFromEnv } from "./config.ts";
import { MediaRepo } from "./repo.ts";
import { mediaRoutes } from "./routes.ts";
import { seedMedia } from "./seed.ts";
import { MediaService } from "./service.ts";
import { diskStorage, type MediaStorage, s3Storage } from "./storage.ts";

export { MediaService, responsiveImage } from "./service.ts";

const services = new WeakMap<FastifyInstance, MediaService>();

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
  const service = new MediaService({ repo: new MediaRepo(platform.db), storage });
  services.set(app, service);
  app.log.info({ storage: storage.kind }, "media: image storage ready");
  await mediaRoutes(app, service);
}

type WithImages<T> = T & { images?: ProjectImages };

/** Adds `images` to the answers of another module; a no-op when the media module is not registered. */
export interface ImageAttacher {
  /** List rows and cards: the logo only. */
  logos<T extends { slug: string }>(owner: MediaOwner, items: readonly T[]): Promise<WithImages<T>[]>;
  /** One item's page: logo, cover and screenshots. */
  full<T extends { slug: string }>(owner: MediaOwner, item: T): Promise<WithImages<T>>;
}

export function mediaImages(app: FastifyInstance): ImageAttacher {
  return {
    async logos(owner, items) {
      const service = services.get(app);
      if (service === undefined || items.length === 0) return [...items];
      const found = await service.imagesFor(
        owner,
        items.map((i) => i.slug),
        "logo",
      );
      return items.map((i) => {
        const images = found.get(i.slug);
        return images === undefined ? i : { ...i, images };
      });
    },
    async full(owner, item) {
      const service = services.get(app);
      if (service === undefined) return item;
      const images = (await service.imagesFor(owner, [item.slug], "full")).get(item.slug);
      return images === undefined ? item : { ...item, images };
    },
  };
}

/** Demo artwork for the seeded airdrops and apps: listed after their seeds. */
export const mediaSeed: Seed = {
  name: "media",
  version: 1,
  seed: async (db, { log }) => {
    const { assets } = await seedMedia(db);
    log.info({ assets }, "media: demo artwork registered");
  },
};

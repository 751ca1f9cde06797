import crypto from "node:crypto";
import type { Db } from "./db/types.ts";

/**
 * Secrets that every instance on one database must agree on (the login-encryption key,
 * the accounts secret when the environment gives none), kept in `shared_secrets`: the
 * first instance to ask makes one, every later one reads it (docs/operations.md).
 *
 * In production a value is stored sealed (AES-256-GCM, the name as associated data)
 * under SECRETS_KEY, so a copy of the database alone does not give the keys away.
 * Outside production values are stored as they are.
 */
export interface SharedSecretStore {
  /**
   * The value stored under `name`, made by `make` and stored when none is. Concurrent
   * callers (instances starting together) all get the one value stored first. Undefined
   * when nothing can be shared: production without SECRETS_KEY.
   */
  getOrCreate(name: string, make: () => string): Promise<string | undefined>;
}

export class SharedSecretError extends Error {
  override name = "SharedSecretError";
}

const SEALED_PREFIX = "v1.";

function seal(key: Buffer, plain: string, name: string): string {
  const iv = crypto.randomBytes(12);
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(`meridian-shared-secret:${name}`));
  const ct = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `${SEALED_PREFIX}${[iv, cipher.getAuthTag(), ct].map((b) => b.toString("base64url")).join(".")}`;
}

function open(key: Buffer, sealed: string, name: string): string {
  const [iv, tag, ct] = sealed.slice(SEALED_PREFIX.length).split(".");
  if (!sealed.startsWith(SEALED_PREFIX) || iv === undefined || tag === undefined || ct === undefined)
    throw new SharedSecretError(`shared secret ${name}: unreadable stored value`);
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
    decipher.setAAD(Buffer.from(`meridian-shared-secret:${name}`));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ct, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    throw new SharedSecretError(
      `shared secret ${name} was sealed under another SECRETS_KEY: give every instance the same SECRETS_KEY`,
    );
  }
}

export function sharedSecretStore(
  db: Db,
  options: { production: boolean; key: Buffer | undefined; now?: () => number },
): SharedSecretStore {
  const { production, key } = options;
  const now = options.now ?? Date.now;
  const read = (row: { value: string; sealed: number }, name: string): string => {
    if (row.sealed === 1) {
      if (key === undefined)
        throw new SharedSecretError(`shared secret ${name} is sealed: set SECRETS_KEY on this instance`);
      return open(key, row.value, name);
    }
    if (production)
      throw new SharedSecretError(
        `shared secret ${name} is stored unsealed (made outside production): delete its row from shared_secrets`,
      );
    return row.value;
  };
  return {
    async getOrCreate(name, make) {
      if (production && key === undefined) return undefined;
      const select = "SELECT value, sealed FROM shared_secrets WHERE name = ?";
      const found = await db.get<{ value: string; sealed: number }>(select, [name]);
      if (found !== undefined) return read(found, name);
      const plain = make();
      const stored = key === undefined ? plain : seal(key, plain, name);
      // The first insert wins; an instance that lost the race reads the winner's value.
      await db.run(
        "INSERT INTO shared_secrets (name, value, sealed, created_at) VALUES (?, ?, ?, ?) ON CONFLICT (name) DO NOTHING",
        [name, stored, key === undefined ? 0 : 1, now()],
      );
      const row = await db.get<{ value: string; sealed: number }>(select, [name]);
      if (row === undefined) throw new SharedSecretError(`shared secret ${name}: not stored`);
      return read(row, name);
    },
  };
}

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { allowedImageHosts, ConfigError, describeConfig, loadConfig, parseEnv, REPO_ROOT } from "./config.ts";

describe("loadConfig", () => {
  it("applies defaults: port 3000, SQLite under <repo>/data", () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(`${REPO_ROOT}/data`);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.trustProxy).toBe(false);
  });

  it("defaults to durable SQLite commits and the meridian: Redis prefix", () => {
    expect(loadConfig({})).toMatchObject({ sqliteSynchronous: "group", redisPrefix: "meridian:" });
    expect(loadConfig({ SQLITE_SYNCHRONOUS: "NORMAL", REDIS_PREFIX: "staging:" })).toMatchObject({
      sqliteSynchronous: "normal",
      redisPrefix: "staging:",
    });
    expect(() => loadConfig({ SQLITE_SYNCHRONOUS: "OFF" })).toThrow(ConfigError);
    expect(() => loadConfig({ REDIS_PREFIX: "has space" })).toThrow(ConfigError);
  });

  it("makes the site's own default address the image host when none is configured", () => {
    expect(loadConfig({ PORT: "4000" }).imgDomains.internal).toEqual(["localhost:4000"]);
    expect(loadConfig({ IMG_DOMAINS_INTERNAL: "" }).imgDomains.internal).toEqual([]);
    expect(loadConfig({ IMG_DOMAINS_FOREIGN: "img.example.com" }).imgDomains.internal).toEqual([]);
  });

  it("parses lists, trust proxy and image hosts", () => {
    const config = loadConfig({
      PUBLIC_DOMAINS: "meridian.example, meridian.example.jp",
      IMG_DOMAINS_FOREIGN: "img1.example.com,img2.example.com",
      DEFAULT_IMG_HOST: "static.example.com",
      TRUST_PROXY: "2",
    });
    expect(config.publicDomains).toEqual(["meridian.example", "meridian.example.jp"]);
    expect(config.trustProxy).toBe(2);
    expect(allowedImageHosts(config)).toEqual(["img1.example.com", "img2.example.com", "static.example.com"]);
  });

  it("names the bad variable, never its value", () => {
    try {
      loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://user:s3cret@db/x" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect(String(error)).toContain("PORT");
      expect(String(error)).toContain("DATABASE_URL");
      expect(String(error)).not.toContain("s3cret");
    }
  });

  it("describes itself without credentials", () => {
    const config = loadConfig({ DATABASE_URL: "postgres://app:s3cret@db.internal:5432/meridian" });
    expect(JSON.stringify(describeConfig(config))).not.toContain("s3cret");
    expect(describeConfig(config).databaseUrl).toBe("postgres://db.internal:5432/meridian");
  });
});

describe("parseEnv", () => {
  const schema = z.object({
    FEED: z.enum(["model", "replay"]).default("model"),
    TICK_MS: z.coerce.number().int(),
  });

  it("answers one line naming each bad variable and the values an enum accepts", () => {
    expect(() => parseEnv(schema, { FEED: "live", TICK_MS: "5" })).toThrow(
      new ConfigError("Invalid environment: FEED must be one of model, replay"),
    );
    try {
      parseEnv(schema, { FEED: "live", TICK_MS: "soon" });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).not.toContain("\n");
      expect(message).toMatch(/^Invalid environment: FEED must be one of model, replay; TICK_MS: .+/);
      expect(message).not.toContain("soon");
    }
  });

  it("returns the parsed values", () => {
    expect(parseEnv(schema, { TICK_MS: "250" })).toEqual({ FEED: "model", TICK_MS: 250 });
  });
});

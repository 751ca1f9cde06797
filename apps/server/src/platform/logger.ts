import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";
import type { Config } from "./config.ts";

export type Logger = FastifyBaseLogger;

/**
 * Paths pino censors in every line: credentials in headers, and secrets in any logged
 * body or object up to two levels deep.
 */
const SECRET_KEYS = [
  "password",
  "pwd",
  "rePwd",
  "token",
  "accessToken",
  "refreshToken",
  "secret",
  "apiKey",
  "privateKeyPem",
  "bodyCiphertext",
  "verifyCode",
  "googleCode",
  "emailCode",
  "mobileCode",
];

export const REDACT_PATHS = [
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  "headers.cookie",
  "headers.authorization",
  "databaseUrl",
  "redisUrl",
  ...SECRET_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

/** pino options for Fastify: one JSON line per event, pretty in development. */
export function loggerOptions(config: Config): NonNullable<FastifyServerOptions["logger"]> {
  return {
    level: config.logLevel,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    ...(config.nodeEnv === "development"
      ? {
          transport: {
            target: "pino-pretty",
            options: { translateTime: "HH:MM:ss.l", ignore: "pid,hostname" },
          },
        }
      : {}),
  };
}

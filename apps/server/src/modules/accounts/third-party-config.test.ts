import { describe, expect, it } from "vitest";
import { ConfigError } from "../../platform/config.ts";
import { loadAccountsConfig } from "./config.ts";

const provider = {
  id: "google",
  name: "Google",
  issuer: "https://accounts.google.com",
  clientId: "client",
  clientSecret: "secret",
};
const load = (env: Record<string, string>) =>
  loadAccountsConfig({ NODE_ENV: "test", ...env }, () => undefined);

describe("third-party sign-in settings", () => {
  it("reads OpenID providers and the Telegram bot; none by default", () => {
    expect(load({}).third).toEqual({ oidc: [], telegram: undefined });
    const config = load({
      OIDC_PROVIDERS: JSON.stringify([
        provider,
        { ...provider, id: "corp", issuer: "http://127.0.0.1:9000/x" },
      ]),
      TELEGRAM_BOT_TOKEN: "123:abcdefghijklmnopqrstuvwxyz",
      TELEGRAM_BOT_NAME: "meridian_bot",
    });
    expect(config.third.oidc.map((p) => p.id)).toEqual(["google", "corp"]);
    expect(config.third.telegram).toEqual({
      botToken: "123:abcdefghijklmnopqrstuvwxyz",
      botName: "meridian_bot",
    });
  });

  it.each([
    ["not JSON", { OIDC_PROVIDERS: "[{" }],
    [
      "an http issuer off this machine",
      { OIDC_PROVIDERS: JSON.stringify([{ ...provider, issuer: "http://idp.example" }]) },
    ],
    ["two providers with one id", { OIDC_PROVIDERS: JSON.stringify([provider, provider]) }],
    ["the reserved id telegram", { OIDC_PROVIDERS: JSON.stringify([{ ...provider, id: "telegram" }]) }],
    [
      "a missing client secret",
      { OIDC_PROVIDERS: JSON.stringify([{ ...provider, clientSecret: undefined }]) },
    ],
    ["an unknown field", { OIDC_PROVIDERS: JSON.stringify([{ ...provider, scope: "x" }]) }],
    ["a bot token without a bot name", { TELEGRAM_BOT_TOKEN: "123:abcdefghijklmnopqrstuvwxyz" }],
    ["a malformed bot token", { TELEGRAM_BOT_TOKEN: "nope", TELEGRAM_BOT_NAME: "meridian_bot" }],
  ])("refuses to start with %s, naming the variable and not its value", (_what, env) => {
    let error: unknown;
    try {
      load(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toMatch(/OIDC_PROVIDERS|TELEGRAM_BOT/);
    expect(message).not.toContain("secret");
    expect(message).not.toContain("abcdefghij");
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: antd form templates spell their placeholders ${label} literally.
import { describe, expect, it } from "vitest";
import { loadI18n } from "../../i18n/resources.server.ts";
import { buildValidateMessages } from "./validate-messages.ts";

describe("buildValidateMessages", () => {
  it("maps the form namespace onto antd's template shape", () => {
    const messages = buildValidateMessages(loadI18n("en", ["form"]).bundles.form);
    expect(messages.required).toBe("Please enter ${label}");
    expect(messages.whitespace).toBe("${label} cannot be a blank character");
    expect(messages.string?.range).toBe("${label} must be between ${min} and ${max} characters");
    expect(messages.types?.email).toBe("${label} is not a valid ${type}");
    expect(messages.pattern?.mismatch).toBe("${label} does not match the pattern ${pattern}");
  });

  it("follows the locale", () => {
    expect(buildValidateMessages(loadI18n("de", ["form"]).bundles.form).required).toBe(
      "Bitte ${label} eingeben",
    );
    expect(buildValidateMessages(loadI18n("ar", ["form"]).bundles.form).required).toBe("يُرجى إدخال ${label}");
  });

  it("leaves antd's defaults in place when the namespace is missing", () => {
    expect(buildValidateMessages(undefined).required).toBeUndefined();
  });
});

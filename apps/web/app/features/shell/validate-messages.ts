import type { FormProps } from "antd";

export type ValidateMessages = NonNullable<FormProps["validateMessages"]>;

const TYPES = [
  "string",
  "method",
  "array",
  "object",
  "number",
  "date",
  "boolean",
  "integer",
  "float",
  "regexp",
  "email",
  "url",
  "hex",
] as const;

type Messages = Record<string, unknown>;

function pick(source: Messages, key: string): Messages {
  const value = source[key];
  return typeof value === "object" && value !== null ? (value as Messages) : {};
}

function text(source: Messages, key: string): string | undefined {
  const value = source[key];
  return typeof value === "string" ? value : undefined;
}

/**
 * Ant Design form message templates (docs/product.md §5) from the `form` namespace's
 * `validate` object. One translated "not a valid ${type}" template serves every type.
 */
export function buildValidateMessages(formBundle: Messages | undefined): ValidateMessages {
  const v = pick(formBundle ?? {}, "validate");
  const typeInvalid = text(v, "typeInvalid");
  const group = (name: string, keys: readonly string[]) => {
    const g = pick(v, name);
    return Object.fromEntries(keys.map((k) => [k, text(g, k)]).filter(([, value]) => value !== undefined));
  };
  return {
    default: text(v, "default"),
    required: text(v, "required"),
    enum: text(v, "enum"),
    whitespace: text(v, "whitespace"),
    date: group("date", ["format", "parse", "invalid"]),
    types: typeInvalid ? Object.fromEntries(TYPES.map((type) => [type, typeInvalid])) : {},
    string: group("string", ["len", "min", "max", "range"]),
    number: group("number", ["len", "min", "max", "range"]),
    array: group("array", ["len", "min", "max", "range"]),
    pattern: group("pattern", ["mismatch"]),
  };
}

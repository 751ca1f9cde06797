import { type TrackingRecord, trackingRecordSchema } from "@meridian/contracts";
import type { z } from "zod";

/**
 * A yes/no check of one upload element, compiled once from `trackingRecordSchema` itself
 * (its zod definition), so the two cannot drift: a kind of schema the compiler does not
 * know throws at start-up rather than passing unchecked.
 *
 * Why: zod's safeParse cost about 0.6 of JSON.parse per upload (it builds a new object
 * and an issue list per event). This check allocates nothing; only an event it refuses
 * goes through zod, which then names the failing fields. It may refuse more than zod
 * (zod then accepts), never less: `validate.test.ts` holds it to that.
 */
type Check = (value: unknown) => boolean;

interface CheckDef {
  check: string;
  format?: string;
  pattern?: RegExp;
  minimum?: number;
  value?: number;
  inclusive?: boolean;
}
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  values?: unknown[];
  options?: z.ZodType[];
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

const isPlainObject = (value: unknown): value is Record<string, unknown> => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

function compileChecks(def: Def): Check[] {
  return (def.checks ?? []).map(({ _zod: { def: c } }): Check => {
    if (c.check === "min_length" && c.minimum !== undefined) {
      const min = c.minimum;
      return (v) => (v as string).length >= min;
    }
    if (c.check === "string_format" && c.format === "regex" && c.pattern) {
      const pattern = c.pattern;
      return (v) => {
        pattern.lastIndex = 0;
        return pattern.test(v as string);
      };
    }
    if (c.check === "number_format" && c.format === "safeint") return (v) => Number.isSafeInteger(v);
    if (c.check === "greater_than" && c.value !== undefined) {
      const min = c.value;
      return c.inclusive ? (v) => (v as number) >= min : (v) => (v as number) > min;
    }
    throw new Error(`tracking validator: unsupported check ${c.check}/${c.format ?? ""}`);
  });
}

/**
 * An object's check as one generated expression over its fields, each read by a constant
 * property name (a monomorphic load: the events of one upload share a hidden class),
 * plain strings, numbers and booleans tested inline, the other fields through their
 * compiled checks. The keys are the schema's, never client input.
 */
function compileObject(shape: Record<string, z.ZodType>): Check {
  const nested: Check[] = [];
  const tests = Object.entries(shape).map(([name, field]) => {
    const value = `v[${JSON.stringify(name)}]`;
    const def = defOf(field);
    if ((def.checks ?? []).length === 0) {
      if (def.type === "string") return `typeof ${value} === "string"`;
      if (def.type === "boolean") return `typeof ${value} === "boolean"`;
      if (def.type === "number") return `Number.isFinite(${value})`;
    }
    nested.push(compile(field));
    return `c[${nested.length - 1}](${value})`;
  });
  const make = new Function(
    "c",
    "isPlainObject",
    `return (v) => isPlainObject(v) && ${tests.join(" && ") || "true"};`,
  );
  return make(nested, isPlainObject) as Check;
}

function compile(schema: z.ZodType): Check {
  const def = defOf(schema);
  const checks = compileChecks(def);
  const refined = (base: Check): Check =>
    checks.length === 0 ? base : (v) => base(v) && checks.every((check) => check(v));
  switch (def.type) {
    case "unknown":
      return () => true;
    case "string":
      return refined((v) => typeof v === "string");
    case "number":
      return refined((v) => typeof v === "number" && Number.isFinite(v));
    case "boolean":
      return refined((v) => typeof v === "boolean");
    case "literal": {
      const values = new Set(def.values);
      return refined((v) => values.has(v));
    }
    case "union": {
      const options = (def.options ?? []).map(compile);
      return refined((v) => options.some((option) => option(v)));
    }
    case "array": {
      if (!def.element) break;
      const element = compile(def.element);
      return refined((v) => Array.isArray(v) && v.every(element));
    }
    case "record": {
      if (!def.keyType || !def.valueType || defOf(def.keyType).type !== "string") break;
      const value = compile(def.valueType);
      return refined((v) => isPlainObject(v) && Object.values(v).every(value));
    }
    case "object":
      return refined(compileObject(def.shape ?? {}));
  }
  throw new Error(`tracking validator: unsupported schema type ${def.type}`);
}

const check = compile(trackingRecordSchema);

/** True when `value` is a valid TrackingRecord (unknown keys are allowed and ignored, as zod strips them). */
export function isTrackingRecord(value: unknown): value is TrackingRecord {
  return check(value);
}

/** The fields of a TrackingRecord (the schema's keys): what an accepted upload keeps (batch.ts). */
export const RECORD_FIELDS: readonly string[] = Object.keys(trackingRecordSchema.shape);

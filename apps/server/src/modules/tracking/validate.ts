import { type TrackingRecord, trackingRecordSchema } from "@meridian/contracts";
import type { z } from "zod";
import type { SplitFields } from "./batch.ts";

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

interface FieldTest {
  /** The property name, as a JavaScript string literal. */
  key: string;
  /** The test of the value `expression` evaluates to, as a JavaScript expression. */
  test(expression: string): string;
}

/**
 * The checks of an object's fields as generated code: plain strings, numbers and
 * booleans tested inline, the other fields through their compiled checks (`c[i]`). The
 * keys are the schema's, never client input.
 */
function fieldTests(shape: Record<string, z.ZodType>): { tests: FieldTest[]; nested: Check[] } {
  const nested: Check[] = [];
  const tests = Object.entries(shape).map(([name, field]): FieldTest => {
    const key = JSON.stringify(name);
    const def = defOf(field);
    if ((def.checks ?? []).length === 0) {
      if (def.type === "string") return { key, test: (x) => `typeof ${x} === "string"` };
      if (def.type === "boolean") return { key, test: (x) => `typeof ${x} === "boolean"` };
      if (def.type === "number") return { key, test: (x) => `Number.isFinite(${x})` };
    }
    nested.push(compile(field));
    const index = nested.length - 1;
    return { key, test: (x) => `c[${index}](${x})` };
  });
  return { tests, nested };
}

/**
 * An object's check as one generated expression over its fields, each read by a constant
 * property name (a monomorphic load: the events of one upload share a hidden class).
 */
function compileObject(shape: Record<string, z.ZodType>): Check {
  const { tests, nested } = fieldTests(shape);
  const make = new Function(
    "c",
    "isPlainObject",
    `return (v) => isPlainObject(v) && ${tests.map(({ key, test }) => test(`v[${key}]`)).join(" && ") || "true"};`,
  );
  return make(nested, isPlainObject) as Check;
}

/** An upload's events split into shared and per-event fields (batch.ts), or undefined when one is invalid. */
type Scan = (events: readonly unknown[]) => SplitFields | undefined;

/**
 * The check of every event of an upload and its split (batch.ts `compileSplit`) in one
 * pass, field by field: a value equal (===) to the first event's is a primitive already
 * checked there, so only the first event's values and those that differ from them are
 * tested; objects (never shared) are tested one by one. Gives exactly what checking each
 * event with `isTrackingRecord` and then `splitFields` would, or undefined when any event
 * fails (`validate.test.ts` holds it to that).
 */
function compileScan(shape: Record<string, z.ZodType>): Scan {
  const { tests, nested } = fieldTests(shape);
  const steps = tests.map(
    ({ key, test }) => `
    x = e0[${key}];
    if (!(${test("x")})) return undefined;
    if (typeof x === "object" && x !== null) {
      values = new Array(n);
      values[0] = x;
      for (i = 1; i < n; i++) {
        y = events[i][${key}];
        if (!(${test("y")})) return undefined;
        values[i] = y;
      }
      varying[${key}] = values;
    } else {
      for (i = 1; i < n && events[i][${key}] === x; i++);
      if (i === n) shared[${key}] = x;
      else {
        values = new Array(n);
        for (let j = 0; j < i; j++) values[j] = x;
        for (; i < n; i++) {
          y = events[i][${key}];
          if (y !== x && !(${test("y")})) return undefined;
          values[i] = y;
        }
        varying[${key}] = values;
      }
    }`,
  );
  const make = new Function(
    "c",
    "isPlainObject",
    `return (events) => {
      const n = events.length;
      if (n === 0) return { shared: {}, varying: {} };
      for (let k = 0; k < n; k++) if (!isPlainObject(events[k])) return undefined;
      const e0 = events[0];
      const shared = {};
      const varying = {};
      let x, y, i, values;
      ${steps.join("\n")}
      return { shared, varying };
    };`,
  );
  return make(nested, isPlainObject) as Scan;
}

function compile(schema: z.ZodType): Check {
  const def = defOf(schema);
  const checks = compileChecks(def);
  // loops rather than every/some with an arrow: no closure allocated per value checked
  const refined = (base: Check): Check => {
    const [only] = checks;
    if (only === undefined) return base;
    if (checks.length === 1) return (v) => base(v) && only(v);
    return (v) => {
      if (!base(v)) return false;
      for (const check of checks) if (!check(v)) return false;
      return true;
    };
  };
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
      return refined((v) => {
        for (const option of options) if (option(v)) return true;
        return false;
      });
    }
    case "array": {
      if (!def.element) break;
      const element = compile(def.element);
      return refined((v) => Array.isArray(v) && v.every(element));
    }
    case "record": {
      if (!def.keyType || !def.valueType || defOf(def.keyType).type !== "string") break;
      // any value (z.unknown()): the object itself is the whole check
      if (defOf(def.valueType).type === "unknown") return refined(isPlainObject);
      const value = compile(def.valueType);
      return refined((v) => isPlainObject(v) && Object.values(v).every(value));
    }
    case "object":
      return refined(compileObject(def.shape ?? {}));
  }
  throw new Error(`tracking validator: unsupported schema type ${def.type}`);
}

const check = compile(trackingRecordSchema);
const scan = compileScan(trackingRecordSchema.shape);

/** True when `value` is a valid TrackingRecord (unknown keys are allowed and ignored, as zod strips them). */
export function isTrackingRecord(value: unknown): value is TrackingRecord {
  return check(value);
}

/**
 * Every element of an upload checked as `isTrackingRecord` does, and, when all are valid,
 * their fields split as `splitFields(events, RECORD_FIELDS)` gives them (batch.ts);
 * undefined when any element is invalid.
 */
export function scanUpload(events: readonly unknown[]): SplitFields | undefined {
  return scan(events);
}

/** The fields of a TrackingRecord (the schema's keys): what an accepted upload keeps (batch.ts). */
export const RECORD_FIELDS: readonly string[] = Object.keys(trackingRecordSchema.shape);

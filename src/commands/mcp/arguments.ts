import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from "@modelcontextprotocol/server";
import type { JsonSchema } from "./tools.js";

// A tool's arguments checked against its input schema (tools.ts writes them in a small part of JSON
// Schema: object, string, boolean, integer, enum, arrays of strings (of an enum), maxItems, minimum, maximum,
// required, anyOf of required, additionalProperties false), each refusal in an agent's words: the
// argument, what it takes, what came.

interface Property {
  type?: string;
  enum?: string[];
  items?: { type?: string; enum?: string[] };
  maxItems?: number;
  minimum?: number;
  maximum?: number;
}

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/** What one property refuses of a value, or undefined when it takes it. */
function refusal(name: string, spec: Property, value: unknown): string | undefined {
  switch (spec.type) {
    case "string":
      if (typeof value !== "string") return `${name}: expected text, got ${shown(value)}`;
      if (spec.enum && !spec.enum.includes(value))
        return `${name}: expected one of ${spec.enum.join(", ")}, got ${shown(value)}`;
      return undefined;
    case "boolean":
      return typeof value === "boolean" ? undefined : `${name}: expected true or false, got ${shown(value)}`;
    case "integer": {
      const low = spec.minimum ?? Number.MIN_SAFE_INTEGER;
      const high = spec.maximum ?? Number.MAX_SAFE_INTEGER;
      const range = spec.maximum !== undefined ? ` from ${low} to ${high}` : ` of at least ${low}`;
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < low || value > high)
        return `${name}: expected a whole number${range}, got ${shown(value)}`;
      return undefined;
    }
    case "array": {
      if (!Array.isArray(value) || value.some((item) => typeof item !== "string"))
        return `${name}: expected a list of strings, got ${shown(value)}`;
      if (spec.maxItems !== undefined && value.length > spec.maxItems)
        return `${name}: at most ${spec.maxItems} items, got ${value.length}`;
      const allowed = spec.items?.enum;
      const wrong = allowed ? value.find((item: string) => !allowed.includes(item)) : undefined;
      if (wrong !== undefined)
        return `${name}: expected items among ${allowed!.join(", ")}, got ${shown(wrong)}`;
      return undefined;
    }
    default:
      return undefined;
  }
}

/** The nearest name to a mistyped one, when one is near (two edits at most). */
function nearest(word: string, names: string[]): string | undefined {
  const distance = (from: string, to: string) => {
    const row = Array.from({ length: to.length + 1 }, (_, column) => column);
    for (let i = 1; i <= from.length; i++) {
      let diagonal = row[0]!;
      row[0] = i;
      for (let j = 1; j <= to.length; j++) {
        const above = row[j]!;
        row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (from[i - 1] === to[j - 1] ? 0 : 1));
        diagonal = above;
      }
    }
    return row[to.length]!;
  };
  return names
    .map((name) => ({ name, edits: distance(word.toLowerCase(), name.toLowerCase()) }))
    .filter((candidate) => candidate.edits <= 2)
    .sort((a, b) => a.edits - b.edits)[0]?.name;
}

/** The first thing the schema refuses of the arguments, in words; undefined when they pass. */
export function checkArguments(schema: JsonSchema, input: unknown): string | undefined {
  if (input === null || typeof input !== "object" || Array.isArray(input))
    return `arguments: expected an object, got ${shown(input)}`;
  const properties = (schema.properties ?? {}) as Record<string, Property>;
  const names = Object.keys(properties);
  for (const key of Object.keys(input)) {
    if (Object.hasOwn(properties, key)) continue;
    const near = nearest(key, names);
    return `unknown argument ${shown(key)}${near ? ` (did you mean ${near}?)` : ""}; the arguments are ${names.join(", ")}`;
  }
  const args = input as Record<string, unknown>;
  for (const key of (schema.required ?? []) as string[])
    if (args[key] === undefined) {
      const choices = properties[key]?.enum;
      return `${key} is required${choices ? ` (${choices.join(" or ")})` : ""}`;
    }
  const anyOf = (schema.anyOf ?? []) as Array<{ required: string[] }>;
  if (anyOf.length && !anyOf.some((one) => one.required.every((name) => args[name] !== undefined)))
    return `name the tokens with ${anyOf.map((one) => one.required.join(" and ")).join(" or ")}`;
  for (const [key, value] of Object.entries(args)) {
    const why = refusal(key, properties[key]!, value);
    if (why) return why;
  }
  return undefined;
}

/** The SDK's validator for tool arguments, with these words. */
export const argumentValidator: jsonSchemaValidator = {
  getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
    return (input: unknown) => {
      const why = checkArguments(schema as JsonSchema, input);
      return why === undefined
        ? { valid: true, data: input as T, errorMessage: undefined }
        : { valid: false, data: undefined, errorMessage: why };
    };
  },
};

import { z } from "zod";
import type { $ZodRawIssue } from "zod/v4/core";

/*
 * Every schema's failures in plain words, for the API's problems and the dashboard's forms alike: zod's
 * own messages ("Too big: expected string to have <=200 characters") read like a stack trace. A
 * message set on a schema (`{ error: ... }`) still wins; this fills in the rest. Messages start in
 * lower case and read after the field's name: "Promo text must be at most 200 characters."
 */

type Issue = $ZodRawIssue;

const TYPE_NAMES: Record<string, string> = {
  string: "text",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  object: "an object",
  array: "a list",
  date: "a date",
  null: "null",
};

const FORMATS: Record<string, string> = {
  email: "must be an e-mail address",
  url: "must be a URL",
  uuid: "must be an id (UUID)",
  guid: "must be an id (UUID)",
  datetime: "must be a date and time (ISO 8601, e.g. 2026-01-31T12:00:00Z)",
  date: "must be a date (YYYY-MM-DD)",
  time: "must be a time (HH:MM:SS)",
  regex: "is not in the expected format",
};

const plural = (n: number | bigint, one: string, many: string) => `${n} ${Number(n) === 1 ? one : many}`;

function sizeBound(origin: string, n: number | bigint): string {
  if (origin === "string") return plural(n, "character", "characters");
  if (origin === "array" || origin === "set") return plural(n, "entry", "entries");
  if (origin === "file") return plural(n, "byte", "bytes");
  return String(n);
}

export function plainMessage(issue: Issue): string | undefined {
  switch (issue.code) {
    case "invalid_type":
      if (issue.input === undefined) return "is required";
      return `must be ${TYPE_NAMES[issue.expected] ?? issue.expected}`;
    case "too_big": {
      const bound = sizeBound(issue.origin, issue.maximum as number);
      if (issue.origin === "string" || issue.origin === "array" || issue.origin === "set" || issue.origin === "file") return `must be at most ${bound}`;
      return issue.inclusive === false ? `must be less than ${bound}` : `must be at most ${bound}`;
    }
    case "too_small": {
      const bound = sizeBound(issue.origin, issue.minimum as number);
      if (issue.origin === "string") return Number(issue.minimum) === 1 ? "must not be empty" : `must be at least ${bound}`;
      if (issue.origin === "array" || issue.origin === "set") return Number(issue.minimum) === 1 ? "must have at least one entry" : `must have at least ${bound}`;
      return issue.inclusive === false ? `must be greater than ${bound}` : `must be at least ${bound}`;
    }
    case "invalid_format":
      if (issue.format === "starts_with") return `must start with "${(issue as { prefix?: string }).prefix}"`;
      if (issue.format === "ends_with") return `must end with "${(issue as { suffix?: string }).suffix}"`;
      if (issue.format === "includes") return `must contain "${(issue as { includes?: string }).includes}"`;
      return FORMATS[issue.format] ?? `must be a valid ${issue.format}`;
    case "invalid_value":
      return issue.values.length === 1 ? `must be ${JSON.stringify(issue.values[0])}` : `must be one of ${issue.values.map((v: unknown) => JSON.stringify(v)).join(", ")}`;
    case "not_multiple_of":
      return `must be a multiple of ${issue.divisor}`;
    case "unrecognized_keys":
      return `has ${issue.keys.length === 1 ? "a field it does not know" : "fields it does not know"}: ${issue.keys.join(", ")}`;
    case "invalid_union":
      return "is not any of the accepted forms";
    case "invalid_key":
      return "has a key that is not valid";
    case "invalid_element":
      return "has an entry that is not valid";
    default:
      return undefined;
  }
}

z.config({ customError: plainMessage });

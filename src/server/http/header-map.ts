import type http from "node:http";

/** Tab, line feed, carriage return and space: the HTTP whitespace Fetch's Headers strips around a value. */
const isWhitespace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
const normalize = (value: string) =>
  value !== "" && (isWhitespace(value.charCodeAt(0)) || isWhitespace(value.charCodeAt(value.length - 1))) ? value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, "") : value;

/**
 * Fetch's `Headers` as the front door's handlers use them, kept in a plain map: a request's headers
 * are Node's own (already parsed and checked by its HTTP parser), and an answer's are written to
 * Node's response, which checks each name and value as it sets it. Undici's Headers converts and
 * validates every name and value through WebIDL on each call, 3% of a REST GET's CPU in a profile
 * for the dozen reads and writes of one exchange. Behaves as Fetch's (header-map.test.ts holds it to
 * it): names case-insensitive, repeated values joined with ", " except Set-Cookie's, iteration
 * sorted by name, outer whitespace stripped.
 */
export class HeaderMap implements Headers {
  private readonly map = new Map<string, string | string[]>();

  constructor(init?: HeadersInit) {
    if (!init) return;
    if (init instanceof HeaderMap || init instanceof Headers || Array.isArray(init)) for (const [name, value] of init) this.append(name, value);
    else for (const [name, value] of Object.entries(init)) this.append(name, value);
  }

  /** Node's parsed request headers, lowercase already (a repeated header arrives as a list only for Set-Cookie). */
  static fromNode(headers: http.IncomingHttpHeaders): HeaderMap {
    const map = new HeaderMap();
    for (const name in headers) {
      const value = headers[name];
      if (value !== undefined) map.map.set(name, value);
    }
    return map;
  }

  get(name: string): string | null {
    const value = this.map.get(name.toLowerCase());
    return value === undefined ? null : typeof value === "string" ? value : value.join(", ");
  }

  has(name: string): boolean {
    return this.map.has(name.toLowerCase());
  }

  set(name: string, value: string): void {
    const key = name.toLowerCase();
    this.map.set(key, key === "set-cookie" ? [normalize(value)] : normalize(value));
  }

  append(name: string, value: string): void {
    const key = name.toLowerCase();
    const existing = this.map.get(key);
    const added = normalize(value);
    if (key === "set-cookie") this.map.set(key, [...(existing === undefined ? [] : typeof existing === "string" ? [existing] : existing), added]);
    else this.map.set(key, existing === undefined ? added : `${typeof existing === "string" ? existing : existing.join(", ")}, ${added}`);
  }

  delete(name: string): void {
    this.map.delete(name.toLowerCase());
  }

  getSetCookie(): string[] {
    const value = this.map.get("set-cookie");
    return value === undefined ? [] : typeof value === "string" ? [value] : [...value];
  }

  forEach(callback: (value: string, name: string, parent: Headers) => void, thisArg?: unknown): void {
    for (const name of [...this.map.keys()].sort()) {
      const value = this.map.get(name)!;
      if (typeof value === "string") callback.call(thisArg, value, name, this);
      else if (name === "set-cookie") for (const cookie of value) callback.call(thisArg, cookie, name, this);
      else callback.call(thisArg, value.join(", "), name, this);
    }
  }

  entries() {
    return this.sorted().values();
  }

  keys() {
    return this.sorted()
      .map(([name]) => name)
      .values();
  }

  values() {
    return this.sorted()
      .map(([, value]) => value)
      .values();
  }

  [Symbol.iterator]() {
    return this.entries();
  }

  /** As Fetch iterates: by name, each Set-Cookie on its own, any other name once with its values joined. */
  private sorted(): [string, string][] {
    const pairs: [string, string][] = [];
    this.forEach((value, name) => pairs.push([name, value]));
    return pairs;
  }
}

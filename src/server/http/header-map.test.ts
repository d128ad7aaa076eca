import { describe, expect, it } from "vitest";
import { HeaderMap } from "./header-map";

type Step = ["set" | "append", string, string] | ["delete", string];

/** Everything a reader can see of a Headers. */
const seen = (h: Headers) => ({
  entries: [...h],
  each: (() => {
    const out: [string, string][] = [];
    h.forEach((value, name) => out.push([name, value]));
    return out;
  })(),
  keys: [...h.keys()],
  values: [...h.values()],
  cookies: h.getSetCookie(),
  gets: ["content-type", "Content-Type", "vary", "set-cookie", "x-a", "missing"].map((n) => [h.get(n), h.has(n)]),
});

const apply = (h: Headers, steps: Step[]) => {
  for (const step of steps) {
    if (step[0] === "delete") h.delete(step[1]);
    else h[step[0]](step[1], step[2]);
  }
  return h;
};

describe("HeaderMap", () => {
  it.each<[string, Step[]]>([
    ["names in any case, one value each", [["set", "Content-Type", "application/json"], ["set", "X-A", "1"], ["set", "x-a", "2"]]],
    ["repeated values joined, Set-Cookie kept apart", [["append", "Vary", "Origin"], ["append", "vary", "Accept-Encoding"], ["append", "Set-Cookie", "a=1"], ["append", "set-cookie", "b=2"]]],
    ["set replaces every Set-Cookie", [["append", "set-cookie", "a=1"], ["append", "set-cookie", "b=2"], ["set", "Set-Cookie", "c=3"]]],
    ["outer whitespace stripped, inner kept", [["set", "x-a", "  a  b \t"], ["append", "vary", "\tOrigin "]]],
    ["deletes", [["set", "x-a", "1"], ["append", "set-cookie", "a=1"], ["delete", "X-A"], ["delete", "Set-Cookie"], ["set", "vary", "x"]]],
    ["sorted by name", [["set", "zeta", "1"], ["set", "Alpha", "2"], ["append", "set-cookie", "s=1"], ["set", "content-type", "text/plain"]]],
  ])("reads as Fetch's Headers after the same writes: %s", (_, steps) => {
    expect(seen(apply(new HeaderMap(), steps))).toEqual(seen(apply(new Headers(), steps)));
  });

  it("is made from what Fetch's Headers is made from", () => {
    const inits: HeadersInit[] = [{ "Content-Type": "a", "x-A": "1" }, [["vary", "a"], ["Vary", "b"], ["set-cookie", "c=1"], ["set-cookie", "d=2"]], new Headers({ x: "1", "set-cookie": "e=1" })];
    for (const init of inits) expect(seen(new HeaderMap(init))).toEqual(seen(new Headers(init)));
    expect(seen(new HeaderMap(new HeaderMap({ "X-A": "1" })))).toEqual(seen(new Headers({ "X-A": "1" })));
  });

  it("takes Node's parsed request headers as they are, Set-Cookie's list too", () => {
    const map = HeaderMap.fromNode({ host: "a.example", "content-type": "application/json", "set-cookie": ["a=1", "b=2"], "x-none": undefined });
    expect(map.get("Host")).toBe("a.example");
    expect(map.get("set-cookie")).toBe("a=1, b=2");
    expect(map.getSetCookie()).toEqual(["a=1", "b=2"]);
    expect(map.has("x-none")).toBe(false);
    expect([...map.keys()]).toEqual(["content-type", "host", "set-cookie", "set-cookie"]);
  });

  it("goes into a Fetch Response as its headers", () => {
    const headers = new HeaderMap({ "content-type": "text/plain" });
    headers.append("set-cookie", "a=1");
    headers.append("set-cookie", "b=2");
    const response = new Response("x", { headers });
    expect(response.headers.get("content-type")).toBe("text/plain");
    expect(response.headers.getSetCookie()).toEqual(["a=1", "b=2"]);
  });
});

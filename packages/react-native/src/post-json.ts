import { ReferloopError, type Problem } from "./errors.ts";

/**
 * One POST to the SDK API, as the contract says: JSON in and out, the key in
 * X-Service-ProjectSecret, no cookies, errors as problem+json. Never throws: the answer is the
 * parsed body or a ReferloopError.
 */
export async function postJson(
  fetchImpl: typeof fetch,
  url: string,
  key: string,
  body: unknown,
  timeoutMs: number,
): Promise<{ ok: true; body: unknown } | { ok: false; error: ReferloopError }> {
  const controller = typeof AbortController === "function" ? new AbortController() : null;
  let timedOut = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Some fetch implementations ignore the signal: the deadline decides anyway.
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      timedOut = true;
      controller?.abort();
      reject(new Error("timeout"));
    }, timeoutMs);
  });
  let response: Response;
  try {
    response = await Promise.race([
      fetchImpl(url, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-Service-ProjectSecret": key },
        body: JSON.stringify(body),
        credentials: "omit",
        signal: controller?.signal,
      }),
      deadline,
    ]);
  } catch (cause) {
    clearTimeout(timer);
    return timedOut
      ? { ok: false, error: new ReferloopError("timeout", `No answer from Referloop within ${timeoutMs} ms.`, { cause }) }
      : { ok: false, error: new ReferloopError("network", "Referloop could not be reached.", { cause }) };
  }
  let text: string;
  try {
    text = await Promise.race([response.text(), deadline]);
  } catch (cause) {
    clearTimeout(timer);
    return { ok: false, error: new ReferloopError(timedOut ? "timeout" : "network", "The answer from Referloop was cut off.", { cause }) };
  }
  clearTimeout(timer);
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (response.ok) {
    return parsed === null
      ? { ok: false, error: new ReferloopError("invalid_response", "Referloop answered without a JSON body.", { status: response.status }) }
      : { ok: true, body: parsed };
  }
  const problem = isProblem(parsed) ? parsed : null;
  const message = problem ? `${problem.title}${problem.detail ? `: ${problem.detail}` : ""}` : `Referloop answered ${response.status}.`;
  const status = response.status;
  if (status === 401 || status === 403) return { ok: false, error: new ReferloopError("unauthorized", message, { status, problem }) };
  if (status === 429) {
    const retryAfter = Number(response.headers.get("Retry-After"));
    return {
      ok: false,
      error: new ReferloopError("rate_limited", message, { status, problem, retryAfterSeconds: Number.isFinite(retryAfter) && retryAfter >= 0 ? retryAfter : null }),
    };
  }
  if (status >= 500) return { ok: false, error: new ReferloopError("server", message, { status, problem }) };
  return { ok: false, error: new ReferloopError("invalid_request", message, { status, problem }) };
}

function isProblem(value: unknown): value is Problem {
  return typeof value === "object" && value !== null && typeof (value as Problem).title === "string" && typeof (value as Problem).status === "number";
}

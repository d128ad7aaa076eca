/** One SDK endpoint call as the contract wants it from a browser: JSON, the publishable key, no cookies. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly status = 0,
  ) {
    super(message);
  }
}

export async function post<T>(apiBaseUrl: string, key: string, endpoint: string, body: object): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${apiBaseUrl}/api/v1/sdk/${endpoint}`, {
      method: "POST",
      credentials: "omit",
      headers: { "Content-Type": "application/json", "X-Service-ProjectSecret": key },
      body: JSON.stringify(body),
    });
  } catch (error) {
    throw new ApiError(`${endpoint} failed: ${(error as Error).message}`);
  }
  if (!res.ok) {
    const problem = (await res.json().catch(() => ({}))) as { title?: string; detail?: string };
    throw new ApiError(`${endpoint} failed: ${res.status} ${problem.detail ?? problem.title ?? res.statusText}`, res.status);
  }
  return res.json() as Promise<T>;
}

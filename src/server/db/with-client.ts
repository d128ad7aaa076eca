import pg from "pg";

/** Runs `fn` with a pg client connected to `url`, and closes the client after (scripts, tests, bench). */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

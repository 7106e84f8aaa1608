import pg from 'pg';

export const postgresUrl = process.env.VIGIL_TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/**
 * Whether PostgreSQL tests should run. Outside CI they skip with a printed reason when no server answers;
 * in CI (CI=true) an unreachable server is a failure, so the suites cannot pass green without it.
 */
export async function postgresAvailable(suite: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch (err) {
    if (process.env.CI) throw new Error(`${suite}: PostgreSQL is required in CI but unreachable at ${postgresUrl}: ${(err as Error).message}`);
    console.log(`SKIP ${suite}: PostgreSQL unreachable at ${postgresUrl} (${(err as Error).message}); set CI=true to make this a failure`);
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

/** A fresh schema for one test file, so parallel files never see each other's tables. Returns a URL using it. */
export async function freshPostgresSchema(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const schema = `t_${name.replace(/[^a-z0-9_]/gi, '_').toLowerCase()}_${process.pid}`;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await client.query(`CREATE SCHEMA ${schema}`);
  await client.end();
  const url = `${postgresUrl}${postgresUrl.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  return {
    url,
    async drop() {
      const c = new pg.Client({ connectionString: postgresUrl });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      await c.end();
    },
  };
}

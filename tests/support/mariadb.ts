import mysql from 'mysql2/promise';

/** The test machine's MariaDB (CI starts it in .ci/run): root with an empty password over TCP, database `test`. */
export const mariadbLogin = {
  host: process.env.VIGIL_TEST_MARIADB_HOST ?? '127.0.0.1',
  port: Number(process.env.VIGIL_TEST_MARIADB_PORT ?? 3306),
  user: 'root',
  password: process.env.VIGIL_TEST_MARIADB_PASSWORD ?? '',
  database: 'test',
};

/**
 * Whether MariaDB tests should run. Outside CI they skip with a printed reason when no server answers; in CI
 * (CI=true) an unreachable server is a failure, so the suites cannot pass green without it.
 */
export async function mariadbAvailable(suite: string): Promise<boolean> {
  try {
    await mariadbDo('SELECT 1');
    return true;
  } catch (err) {
    const where = `${mariadbLogin.host}:${mariadbLogin.port}`;
    if (process.env.CI) throw new Error(`${suite}: MariaDB is required in CI but unreachable at ${where}: ${(err as Error).message}`);
    console.log(`SKIP ${suite}: MariaDB unreachable at ${where} (${(err as Error).message}); set CI=true to make this a failure`);
    return false;
  }
}

/** Runs statements one by one on a connection of their own, as root; the last one's rows. */
export async function mariadbDo<T = Record<string, unknown>>(...statements: string[]): Promise<T[]> {
  const c = await mysql.createConnection({ ...mariadbLogin, connectTimeout: 2000 });
  try {
    let last: unknown = [];
    for (const sql of statements) [last] = await c.query(sql);
    return last as T[];
  } finally {
    await c.end();
  }
}

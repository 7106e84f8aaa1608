// `vigil sdk --lang ts`: the generated client compiles under `tsc --strict` (with only the DOM's fetch types, as in a
// browser), and a driver program calls a live API through it; the requests the API got and the typed results are
// asserted (tests/support/sdk-api.ts holds the scenario shared with Python and Go).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../support/tmp.js';
import { fromRoot } from '../support/paths.js';
import { HOSTILE_SPEC, assertScenario, generate, run, startUsersApi } from '../support/sdk-api.js';

const TSC = fromRoot('node_modules/typescript/bin/tsc');
const STRICT = ['--strict', '--noUnusedLocals', '--noUnusedParameters', '--noImplicitReturns', '--target', 'es2022', '--lib', 'es2022,dom', '--module', 'nodenext', '--moduleResolution', 'nodenext'];

const DRIVER = `import { ApiError, UsersApiClient, type NewUser, type User } from './users-api.js';
declare const process: { argv: string[] };

const client = new UsersApiClient(process.argv[2] + '/', { headers: { authorization: 'Bearer sdk-token' } });
const list = await client.listUsers({ limit: 2, 'sort-by': 'name', tag: ['a', 'b c'], from: '2026-01-01T00:00:00Z', active: true });
const first: User = list.items[0];
const next: string | null = list.next;
const fresh: NewUser = { email: 'new@example.com', address: { city: 'Bergen' }, 'content-type': 'text/csv', class: 'vip', '2fa': false };
const created = await client.createUser(fresh);
const got = await client.getUser('a/b c');
let missing = { status: 0, error: '' };
try {
  await client.getUser('missing');
} catch (err) {
  if (err instanceof ApiError) missing = { status: err.status, error: (err.body as { error: string }).error };
}
const updated = await client.updateUser('u-1', { name: 'Ann B.', role: 'admin' });
const deleted: void = await client.deleteUser('u-1');
const order = await client.getUsersByUserIdOrdersByOrderId('u 1', 42, { expand: ['lines'] });
console.log(JSON.stringify({
  list: { count: list.items.length, next, email: first.email, city: first.address.city, lat: first.address.geo?.lat,
    contentType: first['content-type'], class: first.class, twoFa: first['2fa'], userName: first.user_name, userName2: first.userName, name: first.name },
  created: { id: created.id, email: created.email, city: created.address.city, contentType: created['content-type'], class: created.class, twoFa: created['2fa'] },
  got: { id: got.id, street: got.address.street },
  missing,
  updated: { name: updated.name, role: updated.role },
  deleted: deleted === undefined,
  order: { id: order.id, status: order.status, total: order.total, note: order.note, sku: order.lines[0].sku, qty: order.lines[0].qty },
}));
`;

test('the TypeScript client compiles under tsc --strict and calls a live API', async () => {
  const work = tempDir('vigil-sdk-ts-');
  const api = await startUsersApi();
  try {
    const printed = await generate('ts', work.path);
    assert.match(printed, /users-api\.ts/);
    const source = readFileSync(join(work.path, 'users-api.ts'), 'utf8');
    assert.not.match(source, /^import /m, 'no imports: global fetch only');
    assert.match(source, /"content-type"\?: string;/);
    assert.match(source, /"2fa"\?: boolean;/);
    assert.match(source, /name: string \| null;/);
    writeFileSync(join(work.path, 'package.json'), '{"type":"module"}');
    writeFileSync(join(work.path, 'driver.ts'), DRIVER);
    await run(process.execPath, [TSC, ...STRICT, '--outDir', 'out', 'users-api.ts', 'driver.ts'], { cwd: work.path });
    const out = await run(process.execPath, [join(work.path, 'out/driver.js'), `http://127.0.0.1:${api.port}`], { cwd: work.path });
    assertScenario(api.received, out);
  } finally {
    api.close();
    work.cleanup();
  }
});

test('a type error in the use of a generated type is caught: the types are real, not any', async () => {
  const work = tempDir('vigil-sdk-ts-');
  try {
    await generate('ts', work.path);
    writeFileSync(join(work.path, 'package.json'), '{"type":"module"}');
    writeFileSync(join(work.path, 'bad.ts'), `import { UsersApiClient } from './users-api.js';
export async function f(c: UsersApiClient): Promise<number> { const u = await c.getUser('x'); return u.name; }
`);
    const err = await run(process.execPath, [TSC, ...STRICT, '--noEmit', 'users-api.ts', 'bad.ts'], { cwd: work.path }).then(() => '', (e: Error) => e.message);
    assert.match(err, /Type 'string \| null' is not assignable to type 'number'/);
  } finally {
    work.cleanup();
  }
});

test('names that collide or are reserved words still give a client that compiles, with Node\'s types instead of the DOM\'s', async () => {
  const work = tempDir('vigil-sdk-ts-');
  try {
    // Node's fetch types (@types/node, no DOM lib), as a server-side project compiles it.
    symlinkSync(fromRoot('node_modules'), join(work.path, 'node_modules'));
    writeFileSync(join(work.path, 'package.json'), '{"type":"module"}');
    writeFileSync(join(work.path, 'hostile.json'), JSON.stringify(HOSTILE_SPEC));
    await generate('ts', join(work.path, 'out'), join(work.path, 'hostile.json'), ['--package', 'client']);
    const source = readFileSync(join(work.path, 'out/client.ts'), 'utf8');
    // getThing and get-thing both become methods, neither hides the other; `constructor` cannot be one.
    assert.match(source, /async getThing\(/);
    assert.match(source, /async getThing2\(/);
    assert.match(source, /async constructor2\(/);
    assert.match(source, /export interface Promise2 \{/);
    assert.match(source, /"a b"\?: string;/);
    const nodeOnly = STRICT.map((a) => (a === 'es2022,dom' ? 'es2022' : a));
    await run(process.execPath, [TSC, ...nodeOnly, '--types', 'node', '--noEmit', join(work.path, 'out/client.ts')], { cwd: work.path });
  } finally {
    work.cleanup();
  }
});

test.run();

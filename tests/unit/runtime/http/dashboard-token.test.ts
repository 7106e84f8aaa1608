import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { hashToken, loadOrCreateDashboardToken, tokenMatches } from '../../../../runtime/http/dashboard-token.js';
import { tempDir } from '../../../support/tmp.js';

const mode = (path: string): number => statSync(path).mode & 0o777;

test('hashToken is SHA-256 hex and tokenMatches compares against it', () => {
  assert.is(hashToken('abc'), createHash('sha256').update('abc').digest('hex'));
  assert.ok(tokenMatches('abc', hashToken('abc')));
  assert.not.ok(tokenMatches('abd', hashToken('abc')));
  assert.not.ok(tokenMatches('', hashToken('abc')));
});

test('first run without a configured token: a token is generated, only its hash persisted with mode 0600', async () => {
  const dir = tempDir();
  try {
    const first = await loadOrCreateDashboardToken({ dataDir: dir.path });
    assert.type(first.generated, 'string');
    assert.match(first.generated!, /^[A-Za-z0-9_-]{43}$/);
    assert.is(first.hash, hashToken(first.generated!));
    const folder = join(dir.path, 'control-plane');
    const tokenFile = join(folder, 'token.sha256');
    assert.is(readFileSync(tokenFile, 'utf8').trim(), first.hash);
    assert.is(mode(tokenFile), 0o600);
    assert.is(mode(join(folder, 'session.key')), 0o600);
    assert.ok(first.sessionSecret.length >= 32);
    for (const name of readdirSync(folder)) {
      assert.not.ok(readFileSync(join(folder, name)).includes(first.generated!), `${name} holds the plaintext token`);
    }
    const second = await loadOrCreateDashboardToken({ dataDir: dir.path });
    assert.is(second.generated, undefined, 'the token must be shown once only');
    assert.is(second.hash, first.hash);
    assert.ok(second.sessionSecret.equals(first.sessionSecret));
  } finally {
    dir.cleanup();
  }
});

test('a configured token is hashed and never written; the session secret is still persisted', async () => {
  const dir = tempDir();
  try {
    const r = await loadOrCreateDashboardToken({ configured: 'my-configured-token', dataDir: dir.path });
    assert.is(r.hash, hashToken('my-configured-token'));
    assert.is(r.generated, undefined);
    const folder = join(dir.path, 'control-plane');
    assert.equal(readdirSync(folder), ['session.key']);
    assert.not.ok(readFileSync(join(folder, 'session.key')).includes('my-configured-token'));
  } finally {
    dir.cleanup();
  }
});

test('bad input: an empty configured token, a corrupt hash file, a short secret; loose secret modes are fixed', async () => {
  const dir = tempDir();
  try {
    let code: string | undefined;
    try { await loadOrCreateDashboardToken({ configured: '  ', dataDir: dir.path }); } catch (e) { code = (e as { code?: string }).code; }
    assert.is(code, 'VIGIL_ERR_HTTP_TOKEN_EMPTY');

    const folder = join(dir.path, 'control-plane');
    chmodSync(join(folder, 'session.key'), 0o644);
    writeFileSync(join(folder, 'token.sha256'), 'not a hash\n');
    code = undefined;
    try { await loadOrCreateDashboardToken({ dataDir: dir.path }); } catch (e) { code = (e as { code?: string; message: string }).code; }
    assert.is(code, 'VIGIL_ERR_HTTP_TOKEN_FILE');
    assert.is(mode(join(folder, 'session.key')), 0o600, 'a group/world-readable session secret must be made private');

    writeFileSync(join(folder, 'session.key'), 'short');
    code = undefined;
    try { await loadOrCreateDashboardToken({ configured: 'x', dataDir: dir.path }); } catch (e) { code = (e as { code?: string }).code; }
    assert.is(code, 'VIGIL_ERR_HTTP_TOKEN_FILE');
  } finally {
    dir.cleanup();
  }
});

test('two instances starting at once on one data dir agree on one token hash and one secret', async () => {
  const dir = tempDir();
  try {
    const results = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateDashboardToken({ dataDir: dir.path })));
    assert.is(new Set(results.map((r) => r.hash)).size, 1);
    assert.is(new Set(results.map((r) => r.sessionSecret.toString('hex'))).size, 1);
    assert.is(results.filter((r) => r.generated).length, 1);
  } finally {
    dir.cleanup();
  }
});

test.run();

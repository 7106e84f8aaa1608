import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
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
    assert.equal(readdirSync(folder), ['token.sha256'], 'no session secret: sessions are recorded on the server');
    for (const name of readdirSync(folder)) {
      assert.not.ok(readFileSync(join(folder, name)).includes(first.generated!), `${name} holds the plaintext token`);
    }
    const second = await loadOrCreateDashboardToken({ dataDir: dir.path });
    assert.is(second.generated, undefined, 'the token must be shown once only');
    assert.is(second.hash, first.hash);
  } finally {
    dir.cleanup();
  }
});

test('a configured token is hashed and nothing is written', async () => {
  const dir = tempDir();
  try {
    const r = await loadOrCreateDashboardToken({ configured: 'my-configured-token', dataDir: dir.path });
    assert.is(r.hash, hashToken('my-configured-token'));
    assert.is(r.generated, undefined);
    assert.not.ok(existsSync(join(dir.path, 'control-plane')));
  } finally {
    dir.cleanup();
  }
});

test('bad input: an empty configured token, a corrupt hash file', async () => {
  const dir = tempDir();
  try {
    let code: string | undefined;
    try { await loadOrCreateDashboardToken({ configured: '  ', dataDir: dir.path }); } catch (e) { code = (e as { code?: string }).code; }
    assert.is(code, 'VIGIL_ERR_HTTP_TOKEN_EMPTY');

    await loadOrCreateDashboardToken({ dataDir: dir.path });
    writeFileSync(join(dir.path, 'control-plane', 'token.sha256'), 'not a hash\n');
    code = undefined;
    try { await loadOrCreateDashboardToken({ dataDir: dir.path }); } catch (e) { code = (e as { code?: string; message: string }).code; }
    assert.is(code, 'VIGIL_ERR_HTTP_TOKEN_FILE');
  } finally {
    dir.cleanup();
  }
});

test('two instances starting at once on one data dir agree on one token hash', async () => {
  const dir = tempDir();
  try {
    const results = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateDashboardToken({ dataDir: dir.path })));
    assert.is(new Set(results.map((r) => r.hash)).size, 1);
    assert.is(results.filter((r) => r.generated).length, 1);
  } finally {
    dir.cleanup();
  }
});

test.run();

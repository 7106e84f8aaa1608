// The release feed over real HTTP on loopback: Vigil's shape and GitHub's, and the bounds (a size cap, a time limit).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FEED_MAX_BYTES, fetchRelease, parseRelease } from '../../../../plugins/selfupdate/release-feed.js';

let server: Server;
let base = '';
const routes: Record<string, (res: import('node:http').ServerResponse) => void> = {};

test.before(async () => {
  server = createServer((req, res) => (routes[req.url ?? ''] ?? ((r) => r.writeHead(404).end()))(res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.after(() => {
  server.closeAllConnections();
  server.close();
});

test('GitHub\'s releases/latest answer is read: tag, body, and the assets by name', async () => {
  routes['/repos/o/vigil/releases/latest'] = (res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({
    tag_name: 'v1.4.0', name: 'Vigil 1.4.0', body: 'Notes', published_at: '2026-11-30T08:00:00Z', draft: false,
    assets: [
      { name: 'vigil-1.4.0.tgz', browser_download_url: 'https://github.example/d/vigil-1.4.0.tgz' },
      { name: 'SHA256SUMS', browser_download_url: 'https://github.example/d/SHA256SUMS' },
      { name: 'SHA256SUMS.sig', browser_download_url: 'https://github.example/d/SHA256SUMS.sig' },
    ],
  }));
  const r = await fetchRelease(`${base}/repos/o/vigil/releases/latest`, 5_000);
  assert.equal(r, {
    version: '1.4.0', tag: 'v1.4.0', notes: 'Notes', published_at: '2026-11-30T08:00:00Z',
    archive_url: 'https://github.example/d/vigil-1.4.0.tgz', sums_url: 'https://github.example/d/SHA256SUMS', signature_url: 'https://github.example/d/SHA256SUMS.sig',
  });
});

test('a feed that is not the documented shape is refused, naming what is wrong', () => {
  const bad = (doc: unknown, why: RegExp) => assert.throws(() => parseRelease(doc, 'http://feed/x'), (e: Error & { code?: string }) => e.code === 'VIGIL_ERR_SELFUPDATE_FEED' && why.test(e.message));
  bad([], /not a JSON object/);
  bad({ version: 'latest' }, /version "latest" is not semver/);
  bad({ version: '1.0.0', tag: '../../etc' }, /is not a tag name/);
  bad({ version: '1.0.0', tag: '--upload-pack=x' }, /is not a tag name/);
  bad({ version: '1.0.0', published_at: 'yesterday' }, /published_at "yesterday" is not a date/);
});

test('a feed over the size cap is cut off and refused', async () => {
  routes['/big'] = (res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(`{"version":"1.0.0","notes":"${'x'.repeat(FEED_MAX_BYTES)}"}`);
  };
  await fetchRelease(`${base}/big`, 5_000).then(() => assert.unreachable('read'), (e: Error) => assert.match(e.message, /over the cap of 1048576|more than the cap of 1048576/));
});

test('a feed that never answers is given up at its time limit', async () => {
  routes['/hang'] = () => undefined;
  await fetchRelease(`${base}/hang`, 300).then(() => assert.unreachable('read'), (e: Error & { code?: string }) => {
    assert.is(e.code, 'VIGIL_ERR_SELFUPDATE_FEED');
    assert.match(e.message, /no answer within 300 ms/);
  });
});

test('an error status is reported with the URL', async () => {
  await fetchRelease(`${base}/missing`, 5_000).then(() => assert.unreachable('read'), (e: Error) => assert.match(e.message, new RegExp(`release feed ${base}/missing: answered 404`)));
});

test.run();

// `vigil validate` on the fleet section: a good one passes and turns probes on with it (the host service); each bad
// one fails with exit 2 and names its key and line.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const work = tempDir('vigil-fleet-config-');
test.after(() => work.cleanup());

const validate = async (fleet: string) => {
  const file = writeConfig(work.path, `data_dir: ${work.path}/data\nfleet:\n${fleet}\n`);
  const r = await runVigil(['validate', '-config', file], { env: { WEB1_TOKEN: 'vfr_0123456789abcdef0123456789' } });
  return { code: r.code, out: r.stdout + r.stderr };
};

test('a fleet with peers passes, and brings the probes plugin with it', async () => {
  const r = await validate('  interval: 10s\n  timeout: 3s\n  peers:\n    - { name: web-1, url: "http://web-1.lan:9095", token: "${WEB1_TOKEN}" }');
  assert.is(r.code, 0, r.out);
  assert.match(r.out, /\bfleet\b/);
  assert.match(r.out, /\bprobes\b/);
});

const bad: [string, string, RegExp][] = [
  ['a URL with credentials', '  peers:\n    - { name: a, url: "http://u:p@h:9095", token: "${WEB1_TOKEN}" }', /peers\[0\]\.url|peers\.0\.url/],
  ['a name twice', '  peers:\n    - { name: a, url: "http://h1:9095", token: "${WEB1_TOKEN}" }\n    - { name: a, url: "http://h2:9095", token: "${WEB1_TOKEN}" }', /declared twice/],
  ['a short token', '  peers:\n    - { name: a, url: "http://h1:9095", token: short }', /token/],
  ['an interval under 2s', '  interval: 500ms', /minimum of 2s/],
  ['a timeout over the interval', '  interval: 5s\n  timeout: 10s', /longer than the interval/],
  ['an unknown key', '  intervall: 5s', /intervall/],
  ['25 machines', `  peers:\n${Array.from({ length: 25 }, (_, i) => `    - { name: m${i}, url: "http://h${i}:9095", token: "\${WEB1_TOKEN}" }`).join('\n')}`, /peers/],
];
for (const [what, fleet, expected] of bad) {
  test(`refused: ${what}`, async () => {
    const r = await validate(fleet);
    assert.is(r.code, 2, r.out);
    assert.match(r.out, expected);
    assert.match(r.out, /vigil\.yaml:\d+/);
  });
}

test.run();

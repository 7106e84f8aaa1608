// The channels' section of the config file is checked before anything starts, with file, line and key path: an
// unknown key, a key of another type, a missing URL, an id given twice, a bad address; ${ENV} fills secrets.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const work = tempDir('vigil-channels-config-');
test.after(() => work.cleanup());

const validate = async (channels: string, env: NodeJS.ProcessEnv = {}) => {
  const file = writeConfig(work.path, `data_dir: ${work.path}/data\nchannels:\n${channels}`, 'vigil.yaml');
  return runVigil(['validate', '-config', file], { cwd: work.path, env: { ...process.env, ...env } });
};

test('a valid section passes, with a secret from the environment', async () => {
  const r = await validate(`  max_attempts: 5
  targets:
    - { id: ops, type: slack, url: "\${SLACK_WEBHOOK_URL}" }
    - { id: mail, type: email, host: smtp.example.com, user: alerts, password: "\${SMTP_PASSWORD}", from: "Vigil <alerts@example.com>", to: [ops@example.com] }
    - { id: desk, type: desktop }
`, { SLACK_WEBHOOK_URL: 'https://hooks.slack.com/services/T/B/x', SMTP_PASSWORD: 'p' });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /valid \(plugins: .*channels/);
});

const cases: [string, string, RegExp][] = [
  ['an unknown key', `  targets:
    - { id: ops, type: slack, url: "http://x/y", colour: red }
`, /vigil\.yaml:4:\d+: unknown key channels\.targets\[0\]\.colour/],
  ['an unknown section key', `  max_attempt: 3
`, /vigil\.yaml:3:\d+: unknown key channels\.max_attempt \(did you mean max_attempts\?\)/],
  ['a key of another type', `  targets:
    - { id: mail, type: email, host: h, from: a@b.c, to: [d@e.f], url: "http://x/y" }
`, /channels\.targets\[0\]\.url/],
  ['a missing URL', `  targets:
    - { id: ops, type: discord }
`, /channels\.targets\[0\].*url/],
  ['an id given twice', `  targets:
    - { id: ops, type: desktop }
    - { id: ops, type: desktop }
`, /vigil\.yaml:5:\d+: channels\.targets\[1\]\.id: channel "ops" is declared twice \(also at targets\[0\]\)/],
  ['a recipient that is not an address', `  targets:
    - { id: mail, type: email, host: h, from: a@b.c, to: [ops] }
`, /channels\.targets\[0\]\.to\[0\]: "ops" is not an address/],
];

for (const [what, section, message] of cases) {
  test(`refused: ${what}`, async () => {
    const r = await validate(section);
    assert.is(r.code, 2, r.stdout);
    assert.match(r.stderr, message);
  });
}

test.run();

// The terminal's section of the config file is checked before anything starts, with file, line and key path.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { tempDir } from '../support/tmp.js';
import { runVigil, writeConfig } from '../support/vigil-process.js';

const work = tempDir('vigil-terminal-config-');
test.after(() => work.cleanup());

const validate = async (terminal: string) => {
  const file = writeConfig(work.path, `data_dir: ${work.path}/data\nterminal:\n${terminal}`, 'vigil.yaml');
  return runVigil(['validate', '-config', file], { cwd: work.path });
};

test('a valid section passes', async () => {
  const r = await validate('  enabled: true\n  idle_timeout: 15m\n  max_sessions: 4\n  shell: /bin/sh\n');
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, /valid \(plugins: .*terminal/);
});

const cases: [string, string, RegExp][] = [
  ['an unknown key', '  enabled: true\n  idle: 5m\n', /vigil\.yaml:4:\d+: unknown key terminal\.idle/],
  ['a duration that does not parse', '  idle_timeout: soon\n', /vigil\.yaml:3:\d+: terminal\.idle_timeout: invalid duration "soon"/],
  ['a timeout under a second', '  idle_timeout: 500ms\n', /terminal\.idle_timeout: "500ms" is under the minimum of 1s/],
  ['a relative shell', '  shell: bash\n', /terminal\.shell/],
  ['a shell that is not there', '  shell: /no/such/shell\n', /vigil\.yaml:3:\d+: terminal\.shell: \/no\/such\/shell is not an executable file/],
  ['enabled as a string', '  enabled: "yes"\n', /terminal\.enabled/],
  ['too many sessions', '  max_sessions: 1000\n', /terminal\.max_sessions/],
];

for (const [what, section, message] of cases) {
  test(`${what} is refused with its place in the file`, async () => {
    const r = await validate(section);
    assert.is(r.code, 2, `${what}: ${r.stdout}${r.stderr}`);
    assert.match(r.stderr + r.stdout, message);
  });
}

test.run();

import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chooseShell, FolderError, resolveFolder, shellEnvironment } from '../../../../plugins/terminal/shell-launch.js';

test('the shell: configured, else $SHELL when executable, else /bin/bash', () => {
  assert.is(chooseShell('/bin/zsh', {}), '/bin/zsh');
  assert.is(chooseShell(undefined, { SHELL: '/bin/sh' }), '/bin/sh');
  assert.is(chooseShell(undefined, { SHELL: '/no/such/shell' }), '/bin/bash');
  assert.is(chooseShell(undefined, { SHELL: 'bash' }), '/bin/bash', 'a relative $SHELL is not taken');
});

test('the folder: home by default, ~ expanded, an existing directory only', async () => {
  assert.is(await resolveFolder(undefined, '/tmp'), '/tmp');
  assert.is(await resolveFolder('', '/tmp'), '/tmp');
  assert.is(await resolveFolder('~', '/tmp'), '/tmp');
  assert.is(await resolveFolder('~/', '/'), '/');
  assert.is(await resolveFolder('/etc'), '/etc');
  for (const [bad, why] of [['/no/such/folder', /does not exist/], ['/etc/hostname', /is not a directory/], ['relative/path', /not an absolute path/]] as const) {
    try {
      await resolveFolder(bad, '/tmp');
      assert.unreachable(bad);
    } catch (err) {
      assert.instance(err, FolderError);
      assert.match((err as Error).message, why);
    }
  }
});

test('the environment: TERM set, credentials of the server left out', () => {
  const env = shellEnvironment({ PATH: '/usr/bin', HOME: '/root', VIGIL_TOKEN: 'x', OPENAI_API_KEY: 'y', DB_PASSWORD: 'z', GITHUB_TOKEN: 'w', TERM: 'dumb' });
  assert.equal(env, { PATH: '/usr/bin', HOME: '/root', TERM: 'xterm-256color', COLORTERM: 'truecolor' });
});

test.run();

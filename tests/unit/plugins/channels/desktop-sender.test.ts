// The desktop channel: where there is no session bus or no notify-send it fails at once, saying it is unavailable;
// with both, notify-send is run with the title, the body and the urgency (a notify-send on the PATH records them).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPermanent } from '@vigil/plugin-sdk';
import { Agent } from 'undici';
import { desktopUnavailable, sendDesktop } from '../../../../plugins/channels/senders/desktop.js';
import type { Channel } from '../../../../plugins/channels/types.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-channels-desktop-');
const dispatcher = new Agent();
test.after(async () => { dir.cleanup(); await dispatcher.close(); });

const channel: Channel = { id: 'desk', name: 'Desk', type: 'desktop', enabled: true, source: 'config' };
const message = { title: 'Disk almost full', text: '/var at 96%', severity: 'critical' as const, fields: { host: 'db-1' } };
const context = (env: NodeJS.ProcessEnv) => ({ eventId: 'e', idempotencyKey: 'k', timeoutMs: 5000, dispatcher, test: false, env });

test('without a session bus the channel is unavailable, permanently, and says why', async () => {
  assert.match((await desktopUnavailable({ PATH: '/usr/bin' }))!, 'no session bus');
  try {
    await sendDesktop(channel, message, context({ PATH: '/usr/bin' }));
    assert.unreachable();
  } catch (err) {
    assert.ok(isPermanent(err));
    assert.is((err as { code?: string }).code, 'VIGIL_ERR_CHANNELS_DESKTOP_UNAVAILABLE');
    assert.match((err as Error).message, 'desktop channel "desk" is unavailable');
  }
});

test('with a bus but no notify-send, it names the package to install', async () => {
  assert.match((await desktopUnavailable({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/run/user/1000/bus', PATH: dir.path }))!, 'libnotify-bin');
});

test('with both, notify-send gets the urgency, the title and the body as arguments (no shell)', async () => {
  const out = join(dir.path, 'args.txt');
  const script = join(dir.path, 'notify-send');
  writeFileSync(script, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > ${JSON.stringify(out)}\n`);
  chmodSync(script, 0o755);
  await sendDesktop(channel, { ...message, title: 'Disk $(touch /tmp/pwned) full' }, context({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/x', PATH: dir.path }));
  const args = readFileSync(out, 'utf8').split('\n');
  assert.equal(args.slice(0, 4), ['--app-name=Vigil', '--urgency=critical', '--', 'Disk $(touch /tmp/pwned) full']);
  assert.match(args.slice(4).join('\n'), '/var at 96%\nhost: db-1');
});

test.run();

// The key of the dashboard's secrets: created once with mode 0600 (also by two processes at once), refused when
// readable by others or of the wrong size; a sealed value opens only under its key and for its channel.
import { chmodSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { isPermanent } from '@vigil/plugin-sdk';
import { openSecretBox } from '../../../../plugins/channels/secret-box.js';
import { tempDir } from '../../../support/tmp.js';

const dir = tempDir('vigil-channels-key-');
test.after(() => dir.cleanup());

const failure = async (p: Promise<unknown>): Promise<Error & { code?: string }> => {
  try { await p; } catch (err) { return err as Error & { code?: string }; }
  throw new Error('expected a failure');
};

test('the key file is created 0600 in a new directory, and opened again as it is', async () => {
  const path = join(dir.path, 'nested', 'secrets.key');
  const box = await openSecretBox(path);
  assert.is(statSync(path).mode & 0o777, 0o600);
  const sealed = box.seal('hunter2', 'mail');
  assert.not.match(sealed, 'hunter2');
  assert.is((await openSecretBox(path)).unseal(sealed, 'mail'), 'hunter2');
});

test('two openings at once end with one key', async () => {
  const path = join(dir.path, 'race.key');
  const boxes = await Promise.all(Array.from({ length: 8 }, () => openSecretBox(path)));
  const sealed = boxes[0].seal('same key', 'x');
  for (const box of boxes) assert.is(box.unseal(sealed, 'x'), 'same key');
});

test('a value opens only for its channel and under its key; a changed byte is refused', async () => {
  const box = await openSecretBox(join(dir.path, 'a.key'));
  const other = await openSecretBox(join(dir.path, 'b.key'));
  const sealed = box.seal('{"password":"p"}', 'mail');
  // One byte of the ciphertext changed (replacing base64 characters could leave the bytes as they were: the last
  // character carries padding bits).
  const raw = Buffer.from(sealed.slice(3), 'base64url');
  raw[raw.length - 1] ^= 0x01;
  const changed = `${sealed.slice(0, 3)}${raw.toString('base64url')}`;
  for (const attempt of [() => box.unseal(sealed, 'other-channel'), () => other.unseal(sealed, 'mail'), () => box.unseal(changed, 'mail')]) {
    try {
      attempt();
      assert.unreachable('should not open');
    } catch (err) {
      assert.is((err as { code?: string }).code, 'VIGIL_ERR_CHANNELS_SECRET_KEY');
      assert.ok(isPermanent(err), 'a delivery that cannot open its secrets fails at once');
    }
  }
});

test('a key readable by others, or of the wrong size, is refused with what to do', async () => {
  const open = join(dir.path, 'open.key');
  await openSecretBox(open);
  chmodSync(open, 0o644);
  const loose = await failure(openSecretBox(open));
  assert.is(loose.code, 'VIGIL_ERR_CHANNELS_SECRET_KEY');
  assert.match(loose.message, 'chmod 600');
  const short = join(dir.path, 'short.key');
  writeFileSync(short, 'abc', { mode: 0o600 });
  assert.match((await failure(openSecretBox(short))).message, 'holds 3 bytes, not 32');
});

test.run();

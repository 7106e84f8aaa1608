// SSH keys against the real ssh-keygen: keys of every type made here, their facts computed from the key blob equal
// what `ssh-keygen -lf` prints; generated keys verify with `ssh-keygen -y`; private keys are known by their header.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generateKey } from '../../../../plugins/systools/ssh/generate-key.js';
import { readSshFolder } from '../../../../plugins/systools/ssh/key-folder.js';
import { tempDir } from '../../../support/tmp.js';

const home = tempDir('vigil-ssh-keys-');
const ssh = join(home.path, '.ssh');
mkdirSync(ssh, { mode: 0o700 });
const keygen = (...args: string[]) => execFileSync('ssh-keygen', args, { encoding: 'utf8' }).trim();
const make = (name: string, type: string, bits: string[], comment: string, pass = '') =>
  keygen('-q', '-t', type, ...bits, '-N', pass, '-C', comment, '-f', join(ssh, name));

test.before(() => {
  make('id_ed25519', 'ed25519', [], 'dev@laptop');
  make('id_rsa', 'rsa', ['-b', '3072'], 'rsa key with spaces in its comment');
  make('id_ecdsa', 'ecdsa', ['-b', '384'], '');
  make('deploy', 'ed25519', [], 'deploy@ci', 'a passphrase');
  // A private key whose .pub was deleted: its public half still comes from the file's clear header.
  make('lonely', 'ecdsa', ['-b', '521'], 'lonely@host', 'another one');
  rmSync(join(ssh, 'lonely.pub'));
  // A PEM private key (the old format), readable by others.
  make('legacy', 'rsa', ['-b', '2048', '-m', 'PEM'], 'legacy');
  chmodSync(join(ssh, 'legacy'), 0o644);
  const pub = (n: string) => readFileSync(join(ssh, `${n}.pub`), 'utf8').trim();
  writeFileSync(join(ssh, 'authorized_keys'), [
    '# laptop',
    pub('id_ed25519'),
    '',
    `command="echo \\"hi, there\\"",no-pty,from="10.0.0.0/8,192.168.1.1" ${pub('id_rsa')}`,
    `restrict ${pub('id_ecdsa')}`,
    'ssh-ed25519 AAAAnotbase64!! broken',
    '',
  ].join('\n'));
  writeFileSync(join(ssh, 'known_hosts'), 'example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl\n');
});
test.after(() => home.cleanup());

test('every public key\'s line is exactly what ssh-keygen -lf prints for it', async () => {
  const folder = await readSshFolder(home.path);
  const byName = new Map(folder.keys.map((k) => [k.name, k]));
  for (const name of ['id_ed25519', 'id_rsa', 'id_ecdsa', 'deploy', 'legacy']) {
    const key = byName.get(name);
    assert.ok(key, `${name} listed`);
    assert.is(key!.keygen_line, keygen('-lf', join(ssh, `${name}.pub`)), name);
  }
  assert.is(byName.get('id_rsa')!.bits, 3072);
  assert.is(byName.get('id_ecdsa')!.bits, 384);
  assert.is(byName.get('id_ecdsa')!.comment, '');
  assert.match(byName.get('id_ecdsa')!.keygen_line!, / no comment \(ECDSA\)$/);
  assert.is(byName.get('id_ed25519')!.label, 'ED25519');
  assert.ok(!byName.has('known_hosts') && !byName.has('authorized_keys'), 'known_hosts and authorized_keys are not keys');
});

test('private keys: passphrase or not from the header, never more; a key without .pub gets its fingerprint from the header', async () => {
  const folder = await readSshFolder(home.path);
  const byName = new Map(folder.keys.map((k) => [k.name, k]));
  assert.is(byName.get('id_ed25519')!.encrypted, false);
  assert.is(byName.get('deploy')!.encrypted, true);
  const lonely = byName.get('lonely')!;
  assert.is(lonely.public_file, null);
  assert.is(lonely.private_file, 'lonely');
  assert.is(lonely.bits, 521);
  // ssh-keygen reads the same clear header without the passphrase.
  assert.is(lonely.fingerprint, keygen('-lf', join(ssh, 'lonely')).split(' ')[1]);
  assert.is(byName.get('legacy')!.loose_permissions, true);
  assert.is(byName.get('id_rsa')!.loose_permissions, false);
  // Nothing in the listing holds a private key's body.
  const secret = readFileSync(join(ssh, 'id_ed25519'), 'utf8').split('\n')[1];
  assert.not.ok(JSON.stringify(folder).includes(secret.slice(0, 40)));
});

test('authorized_keys: options with quoted commas and spaces, comments and blank lines kept, fingerprints as ssh-keygen -lf', async () => {
  const { authorized_keys: ak } = await readSshFolder(home.path);
  assert.ok(ak.present);
  assert.equal(ak.lines.map((l) => l.kind), ['comment', 'key', 'blank', 'key', 'key', 'invalid']);
  assert.is(ak.lines[0].comment, 'laptop');
  assert.equal(ak.lines[3].options, ['command="echo \\"hi, there\\""', 'no-pty', 'from="10.0.0.0/8,192.168.1.1"']);
  assert.is(ak.lines[3].comment, 'rsa key with spaces in its comment');
  assert.equal(ak.lines[4].options, ['restrict']);
  // ssh-keygen -lf on the file prints one line per key it reads, in order.
  const printed = keygen('-lf', join(ssh, 'authorized_keys')).split('\n').map((l) => l.split(' ')[1]);
  assert.equal(ak.lines.filter((l) => l.kind === 'key').map((l) => l.fingerprint), printed);
  assert.ok(ak.lines[5].error);
});

test('generated ed25519 keys verify with ssh-keygen -y, with and without a passphrase; fingerprints match', async () => {
  const plain = await generateKey(home.path, { name: 'gen_plain', comment: 'made by vigil', passphrase: '' });
  const locked = await generateKey(home.path, { name: 'gen_locked', comment: 'locked', passphrase: 'correct horse battery' });
  const pubOf = (file: string) => readFileSync(`${file}.pub`, 'utf8').trim().split(' ').slice(0, 2).join(' ');
  const firstTwo = (line: string) => line.split(' ').slice(0, 2).join(' ');
  assert.is(firstTwo(keygen('-y', '-P', '', '-f', plain)), pubOf(plain));
  assert.is(firstTwo(keygen('-y', '-P', 'correct horse battery', '-f', locked)), pubOf(locked));
  const wrong = spawnSync('ssh-keygen', ['-y', '-P', 'wrong', '-f', locked], { encoding: 'utf8' });
  assert.is.not(wrong.status, 0, 'the wrong passphrase does not open it');
  assert.is(statSync(plain).mode & 0o777, 0o600);
  const folder = await readSshFolder(home.path);
  for (const [name, file] of [['gen_plain', plain], ['gen_locked', locked]]) {
    const key = folder.keys.find((k) => k.name === name)!;
    assert.is(key.keygen_line, keygen('-lf', `${file}.pub`));
    assert.is(key.type, 'ssh-ed25519');
  }
  assert.is(folder.keys.find((k) => k.name === 'gen_locked')!.encrypted, true);
});

test('key generation refuses to overwrite and refuses names that are paths or options', async () => {
  const refused = async (name: string, code: string) => {
    try {
      await generateKey(home.path, { name, comment: '', passphrase: '' });
    } catch (err) {
      assert.is((err as { code: string }).code, code, name);
      return;
    }
    assert.unreachable(`${name} was accepted`);
  };
  const before = readFileSync(join(ssh, 'id_ed25519'), 'utf8');
  await refused('id_ed25519', 'VIGIL_ERR_SYSTOOLS_SSH_KEY_EXISTS');
  assert.is(readFileSync(join(ssh, 'id_ed25519'), 'utf8'), before);
  await refused('../escape', 'VIGIL_ERR_SYSTOOLS_SSH_KEY_NAME');
  await refused('-f', 'VIGIL_ERR_SYSTOOLS_SSH_KEY_NAME');
  await refused('.hidden', 'VIGIL_ERR_SYSTOOLS_SSH_KEY_NAME');
  await refused('x.pub', 'VIGIL_ERR_SYSTOOLS_SSH_KEY_NAME');
  await refused('authorized_keys', 'VIGIL_ERR_SYSTOOLS_SSH_KEY_NAME');
});

test.run();

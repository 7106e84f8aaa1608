// Capabilities from files and PATH only: a PATH of stand-in executables and fixture roots decide each answer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedCaps, CAPS_TTL_MS, detectCaps, type HostCaps } from '../../../../plugins/probes/capabilities.js';
import { onPath } from '../../../../plugins/probes/path-lookup.js';
import { tempDir } from '../../../support/tmp.js';
import { empty, laptop } from './proc/fixture-roots.js';

const dir = tempDir('vigil-caps-');
function bin(folder: string, ...names: string[]): string {
  const path = join(dir.path, folder);
  mkdirSync(path, { recursive: true });
  for (const n of names) {
    writeFileSync(join(path, n), '#!/bin/sh\n');
    chmodSync(join(path, n), 0o755);
  }
  return path;
}

test('PATH lookups: executables only, in any directory of PATH', async () => {
  const a = bin('a', 'dnf');
  const b = bin('b', 'podman');
  writeFileSync(join(b, 'docker'), 'not executable');
  const path = `${a}:/nonexistent:${b}`;
  assert.ok(await onPath('dnf', path));
  assert.ok(await onPath('podman', path));
  assert.not.ok(await onPath('docker', path), 'a file without the executable bit');
  assert.not.ok(await onPath('apt', path));
  assert.not.ok(await onPath('dnf', ''));
});

test('a laptop with dnf, flatpak, podman and a GNOME Wayland session', async () => {
  const path = bin('laptop', 'dnf', 'flatpak', 'podman', 'journalctl');
  const caps = await detectCaps(laptop, { PATH: path, XDG_CURRENT_DESKTOP: 'GNOME', XDG_SESSION_TYPE: 'wayland' });
  assert.equal(caps, {
    os: 'linux', package_manager: 'dnf', snap: false, flatpak: true, gnome: true, wayland: true, battery: true,
    // The fixture has no run/systemd/system: journalctl alone is no journal.
    systemd: false, journal: false, gpu: true, nvidia_smi: false, containers: ['podman'],
  });
});

test('apt wins over pacman; a root without /proc is another system; systemd from run/systemd/system', async () => {
  const path = bin('server', 'pacman', 'apt', 'journalctl', 'docker', 'nvidia-smi');
  const root = join(dir.path, 'root');
  mkdirSync(join(root, 'run/systemd/system'), { recursive: true });
  const caps = await detectCaps(root, { PATH: path });
  assert.is(caps.package_manager, 'apt');
  assert.is(caps.os, 'other');
  assert.is(caps.systemd, true);
  assert.is(caps.journal, true);
  assert.is(caps.gpu, true, 'nvidia-smi on PATH is a GPU');
  assert.equal(caps.containers, ['docker']);
  assert.is(caps.gnome, false);
  assert.is(caps.battery, false);
  assert.is((await detectCaps(empty, { PATH: '' })).package_manager, null);
});

test('cached for five minutes, one detection for concurrent callers; a failed one is tried again', async () => {
  let now = 0;
  let runs = 0;
  let fail = false;
  const caps = cachedCaps(async () => {
    runs++;
    if (fail) throw new Error('boom');
    return { os: 'linux' } as HostCaps;
  }, () => now);
  await Promise.all([caps(), caps(), caps()]);
  assert.is(runs, 1);
  now += CAPS_TTL_MS - 1;
  await caps();
  assert.is(runs, 1);
  now += 1;
  fail = true;
  await caps().catch(() => {});
  assert.is(runs, 2);
  fail = false;
  await caps();
  assert.is(runs, 3, 'the failure was not kept');
});

test.after(() => dir.cleanup());
test.run();

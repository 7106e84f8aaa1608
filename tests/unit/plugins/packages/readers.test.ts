import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { parseAptUpgrades, parseDpkgList } from '../../../../plugins/packages/read-apt.js';
import {
  parseDnfUpdates, parseFlatpakList, parsePacmanInfo, parsePacmanUpdates, parseRpmList, parseSnapList, parseZypperUpdates,
} from '../../../../plugins/packages/read-others.js';
import { PackageLists } from '../../../../plugins/packages/package-list.js';

test('dpkg-query: installed rows only, KiB to bytes, foreign architectures keep their suffix', () => {
  const out = 'curl\t7.88.1-10\t500\tii \tcommand line tool for transferring data\n'
    + 'libc6:i386\t2.36-9\t12000\tii \tGNU C Library\n'
    + 'gone\t1.0\t10\trc \tremoved, config files left\n'
    + 'held\t2.0\t\thi \tno size\n';
  assert.equal(parseDpkgList(out).map((r) => [r.name, r.version, r.size_bytes]), [['curl', '7.88.1-10', 512000], ['libc6:i386', '2.36-9', 12288000], ['held', '2.0', null]]);
});

test('apt-get -s upgrade: Inst lines give the new version', () => {
  const out = 'Reading package lists...\nInst curl [7.88.1-10] (7.88.1-10+deb12u5 Debian-Security:12/stable-security [amd64])\n'
    + 'Inst newpkg (1.2 Debian:12/stable [all])\nConf curl (7.88.1-10+deb12u5 Debian-Security:12/stable-security [amd64])\n';
  assert.equal([...parseAptUpgrades(out)], [['curl', '7.88.1-10+deb12u5'], ['newpkg', '1.2']]);
});

test('rpm, dnf and zypper', () => {
  const rows = parseRpmList('bash\t5.2.15-3.fc38\t8000000\tThe GNU Bourne Again shell\ngpg-pubkey\tx-y\t0\tkey\n', 'dnf');
  assert.equal(rows.map((r) => [r.name, r.version, r.size_bytes]), [['bash', '5.2.15-3.fc38', 8000000]]);
  assert.equal([...parseDnfUpdates('\nbash.x86_64    5.2.21-1.fc38    updates\nLast metadata expiration check: 0:01:02 ago\n')], [['bash', '5.2.21-1.fc38']]);
  assert.equal([...parseZypperUpdates('S | Repository | Name | Current Version | Available Version | Arch\n--+---\nv | repo-oss | vim | 9.0.1 | 9.0.2 | x86_64\n')], [['vim', '9.0.2']]);
});

test('pacman, snap and flatpak', () => {
  const info = 'Name            : bash\nVersion         : 5.2.026-2\nDescription     : The GNU Bourne Again shell\nInstalled Size  : 9.30 MiB\n\nName            : zlib\nVersion         : 1:1.3.1-1\nDescription     : Compression library\nInstalled Size  : 340.00 KiB\n';
  assert.equal(parsePacmanInfo(info).map((r) => [r.name, r.version, r.size_bytes]), [['bash', '5.2.026-2', Math.round(9.3 * 1024 * 1024)], ['zlib', '1:1.3.1-1', 340 * 1024]]);
  assert.equal([...parsePacmanUpdates('bash 5.2.026-2 -> 5.2.032-1\n')], [['bash', '5.2.032-1']]);
  assert.equal(parseSnapList('Name    Version   Rev    Tracking       Publisher   Notes\ncore22  20240111  1122   latest/stable  canonical✓  base\n').map((r) => [r.name, r.version]), [['core22', '20240111']]);
  assert.equal(parseFlatpakList('org.gnome.Maps\t45.1\t5.2\u00a0MB\tMaps\n').map((r) => [r.name, r.size_bytes]), [['org.gnome.Maps', 5_200_000]]);
});

test('the list is read once per 30 s, filtered, sorted and cut on the server; a job forgets it', async () => {
  let reads = 0;
  const rows = Array.from({ length: 50 }, (_, i) => ({ manager: 'apt' as const, name: `p${String(i).padStart(2, '0')}`, version: '1', new_version: i % 10 === 0 ? '2' : null, size_bytes: i * 10, description: i === 7 ? 'The Seventh' : '' }));
  const lists = new PackageLists(async () => { reads++; return { rows: rows.map((r) => ({ ...r })), updates_known: true, note: null }; }, () => 0);
  const all = await lists.query('apt', { sort: 'name', limit: 10 });
  assert.equal([all.rows.length, all.matched, all.total, all.truncated, all.updatable], [10, 50, 50, true, 5]);
  assert.equal((await lists.query('apt', { q: 'seventh', sort: 'name', limit: 10 })).rows.map((r) => r.name), ['p07']);
  assert.equal((await lists.query('apt', { updatable: true, sort: 'size', limit: 3 })).rows.map((r) => r.name), ['p40', 'p30', 'p20']);
  assert.is(reads, 1);
  lists.invalidate('apt');
  await lists.query('apt', { sort: 'name', limit: 1 });
  assert.is(reads, 2);
});

test.run();

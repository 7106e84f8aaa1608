// The capture manager over a stand-in elevation that writes a real pcap file as tcpdump would: why a capture ended
// (its count, its time limit, the size limit, a Stop, a failure), one at a time, the keep limit refused (nothing is
// deleted by itself), filters and interfaces checked before anything runs, and the facts kept beside the file.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CaptureManager } from '../../../../plugins/network/capture/capture-manager.js';
import type { CaptureArgs, CaptureProcess, Elevation } from '../../../../plugins/network/elevation.js';
import { tempDir } from '../../../support/tmp.js';

const header = () => { const h = Buffer.alloc(24); h.writeUInt32LE(0xa1b2c3d4, 0); h.writeUInt32LE(262144, 16); h.writeUInt32LE(1, 20); return h; };
const record = (size: number) => { const r = Buffer.alloc(16 + size); r.writeUInt32LE(size, 8); r.writeUInt32LE(size, 12); return r; };
const log = { debug() {}, info() {}, warn() {}, error() {}, child() { return log; } };
const who = { principal: undefined, address: null };

/** A tcpdump stand-in: writes `packets` records of `size` bytes every `everyMs`, ends at its count or when stopped. */
function fakeElevation(dir: string, o: { size?: number; everyMs?: number; fail?: boolean } = {}): Elevation & { started: CaptureArgs[] } {
  const started: CaptureArgs[] = [];
  return {
    started, captureDir: dir,
    status: () => ({ via: 'direct', password_needed: false, note: '' }),
    kill: async () => undefined,
    firewallRules: async () => ({ command: '', output: '', exit_code: 0, truncated: false }),
    async capture(a): Promise<CaptureProcess> {
      started.push(a);
      const file = join(dir, a.name);
      writeFileSync(file, header());
      let n = 0;
      let finish!: (r: { code: number | null; stderr: string }) => void;
      const done = new Promise<{ code: number | null; stderr: string }>((r) => { finish = r; });
      if (o.fail) { setTimeout(() => finish({ code: 1, stderr: 'tcpdump: lo: No such device exists' }), 10); return { done, stop() {} }; }
      const timer = setInterval(() => {
        appendFileSync(file, record(o.size ?? 60));
        if (++n >= a.packets) { clearInterval(timer); finish({ code: 0, stderr: '' }); }
      }, o.everyMs ?? 5);
      return { done, stop() { clearInterval(timer); finish({ code: 0, stderr: '' }); } };
    },
  };
}

const limits = { max_packets: 1000, max_seconds: 60, max_bytes: 65_536, keep: 3 };
const interfaces = async () => ['lo', 'eth0'];

test('ends at its packet count; one at a time; the facts are kept beside the file', async () => {
  const dir = tempDir('vigil-capture-');
  try {
    const e = fakeElevation(dir.path);
    const m = new CaptureManager({ limits, elevation: e, interfaces, log });
    const info = await m.start({ interface: 'lo', packets: 5, seconds: 30, filter: 'tcp port 80' }, 'ann@example.com', who);
    assert.is(info.status, 'running');
    assert.equal(e.started[0], { interface: 'lo', packets: 5, seconds: 32, filter: 'tcp port 80', name: info.name });
    try {
      await m.start({ interface: 'lo', packets: 5, seconds: 5 }, 'x', who);
      assert.unreachable('a second capture');
    } catch (err) { assert.is((err as { code: string }).code, 'VIGIL_ERR_NETWORK_CAPTURE_RUNNING'); }
    await m.settle();
    const done = (await m.files.info(info.name))!;
    assert.equal([done.status, done.stop_reason, done.packets, done.started_by, done.filter], ['done', 'packets', 5, 'ann@example.com', 'tcp port 80']);
    assert.is(done.bytes, 24 + 5 * 76);
    assert.is(m.current(), undefined);
  } finally { dir.cleanup(); }
});

test('the time limit, the size limit, a Stop and a failure each say why it ended', async () => {
  const dir = tempDir('vigil-capture-');
  try {
    const slow = new CaptureManager({ limits, elevation: fakeElevation(dir.path, { everyMs: 200 }), interfaces, log });
    const t = await slow.start({ interface: 'lo', packets: 1000, seconds: 1 }, 'x', who);
    await slow.settle();
    const timed = (await slow.files.info(t.name))!;
    assert.is(timed.stop_reason, 'time');
    assert.ok(timed.packets! >= 2 && timed.packets! < 1000, `${timed.packets} packets`);

    const big = new CaptureManager({ limits, elevation: fakeElevation(dir.path, { size: 4000, everyMs: 20 }), interfaces, log });
    const b = await big.start({ interface: 'eth0', packets: 1000, seconds: 30 }, 'x', who);
    await big.settle();
    const sized = (await big.files.info(b.name))!;
    assert.is(sized.stop_reason, 'size');
    assert.ok(sized.bytes >= limits.max_bytes && sized.packets! < 1000);

    const stopped = new CaptureManager({ limits: { ...limits, keep: 10 }, elevation: fakeElevation(dir.path, { everyMs: 50 }), interfaces, log });
    const s = await stopped.start({ interface: 'lo', packets: 1000, seconds: 30 }, 'x', who);
    await new Promise((r) => setTimeout(r, 200));
    const ended = await stopped.stop(s.name);
    assert.is(ended.stop_reason, 'stopped');
    assert.ok(ended.packets! > 0);

    const failing = new CaptureManager({ limits: { ...limits, keep: 10 }, elevation: fakeElevation(dir.path, { fail: true }), interfaces, log });
    const f = await failing.start({ interface: 'lo', packets: 5, seconds: 5 }, 'x', who);
    await failing.settle();
    const failed = (await failing.files.info(f.name))!;
    assert.equal([failed.stop_reason, failed.error], ['error', 'tcpdump: lo: No such device exists']);
  } finally { dir.cleanup(); }
});

test('bad requests run nothing; the keep limit refuses a new capture and deletes nothing', async () => {
  const dir = tempDir('vigil-capture-');
  try {
    const e = fakeElevation(dir.path);
    const m = new CaptureManager({ limits, elevation: e, interfaces, log });
    const refused = async (req: Parameters<CaptureManager['start']>[0], code: string) => {
      try { await m.start(req, 'x', who); assert.unreachable(JSON.stringify(req)); } catch (err) { assert.is((err as { code: string }).code, code, JSON.stringify(req)); }
    };
    await refused({ interface: 'wlan9', packets: 5, seconds: 5 }, 'VIGIL_ERR_NETWORK_CAPTURE_INPUT');
    await refused({ interface: 'lo', packets: 5, seconds: 5, filter: 'port 80; reboot' }, 'VIGIL_ERR_NETWORK_CAPTURE_INPUT');
    await refused({ interface: 'lo', packets: 5, seconds: 5, filter: '-w /etc/passwd' }, 'VIGIL_ERR_NETWORK_CAPTURE_INPUT');
    await refused({ interface: 'lo', packets: 5, seconds: 5, filter: 'x'.repeat(257) }, 'VIGIL_ERR_NETWORK_CAPTURE_INPUT');
    await refused({ interface: 'lo', packets: 5000, seconds: 5 }, 'VIGIL_ERR_NETWORK_CAPTURE_INPUT');
    assert.is(e.started.length, 0, 'nothing ran');
    const names: string[] = [];
    for (let i = 0; i < 3; i++) {
      names.push((await m.start({ interface: 'lo', packets: 1, seconds: 5 }, 'x', who)).name);
      await m.settle();
      await new Promise((r) => setTimeout(r, 5));
    }
    await refused({ interface: 'lo', packets: 1, seconds: 5 }, 'VIGIL_ERR_NETWORK_CAPTURES_FULL');
    for (const n of names) assert.ok(existsSync(join(dir.path, n)), `${n} kept`);
    assert.equal((await m.files.list(10)).map((c) => c.name), [...names].reverse(), 'newest first');
    await m.delete(names[0]);
    assert.not.ok(existsSync(join(dir.path, names[0])) || existsSync(join(dir.path, `${names[0]}.json`)));
    await m.start({ interface: 'lo', packets: 1, seconds: 5 }, 'x', who);
    await m.settle();
  } finally { dir.cleanup(); }
});

test.run();

import { mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { httpError, type Logger } from '@vigil/plugin-sdk';
import type { Asker, CaptureProcess, Elevation } from '../elevation.js';
import { NetworkErrors } from '../errors.js';
import { CaptureFiles, captureName, type CaptureInfo, type StopReason } from './capture-files.js';
import { decodePcap } from './pcap-decode.js';

export interface CaptureLimits {
  /** The most packets one capture may ask for. */
  max_packets: number;
  /** The longest wall-clock limit one capture may ask for, seconds. */
  max_seconds: number;
  /** A capture file stops growing here: the capture is ended (`size`), and the in-place view reads this much at most. */
  max_bytes: number;
  /** Captures kept at most: a new one is refused until one is deleted (nothing is deleted by itself). */
  keep: number;
}

export interface CaptureRequest {
  interface: string;
  packets: number;
  seconds: number;
  filter?: string;
}

/** tcpdump's default snap length: whole packets are kept. */
const SNAPLEN = 262_144;
/** The helper's own limit is this much past the capture's, so the manager's timer ends it (and says `time`). */
const HELPER_SLACK_S = 2;

/** What a capture filter may hold: tcpdump's expression language, with nothing a shell or tcpdump's options would read. */
export const FILTER_PATTERN = /^(?:[A-Za-z0-9(!][A-Za-z0-9 .:/()!&|<>=\-[\]]*)?$/;
const FILTER_CHARS = 256;
/** How often a running capture's file size is checked against max_bytes. */
const SIZE_POLL_MS = 500;

/**
 * Packet captures: one at a time, through the elevation path, ended by whichever comes first of its packet count
 * (tcpdump's -c), its wall-clock limit, the size limit, or a Stop. Never started but by a request.
 */
export class CaptureManager {
  readonly files: CaptureFiles;
  private running: { info: CaptureInfo; proc: CaptureProcess; reason?: StopReason; ended: Promise<CaptureInfo> } | undefined;

  constructor(private readonly o: { limits: CaptureLimits; elevation: Elevation; interfaces: () => Promise<string[]>; log: Logger }) {
    this.files = new CaptureFiles(o.elevation.captureDir);
  }

  get limits(): CaptureLimits { return this.o.limits; }

  /** The running capture's facts, or undefined. */
  current(): CaptureInfo | undefined {
    return this.running?.info;
  }

  async start(req: CaptureRequest, by: string, who: Asker): Promise<CaptureInfo> {
    const l = this.o.limits;
    if (this.running) throw httpError(NetworkErrors.CAPTURE_RUNNING, `${this.running.info.name} is running; stop it or wait for it to end`);
    const known = await this.o.interfaces();
    if (req.interface !== 'any' && !known.includes(req.interface)) {
      throw httpError(NetworkErrors.CAPTURE_INPUT, `no interface is named "${req.interface.slice(0, 40)}"; this machine has ${known.join(', ')} (or "any")`);
    }
    const filter = (req.filter ?? '').trim();
    if (filter.length > FILTER_CHARS || !FILTER_PATTERN.test(filter)) {
      throw httpError(NetworkErrors.CAPTURE_INPUT, `the filter may hold at most ${FILTER_CHARS} letters, digits, spaces and . : / ( ) ! & | < > = - [ ], and may not start with -`);
    }
    if (req.packets > l.max_packets || req.seconds > l.max_seconds) {
      throw httpError(NetworkErrors.CAPTURE_INPUT, `a capture is at most ${l.max_packets} packets and ${l.max_seconds} s here (network.captures)`);
    }
    if ((await this.files.count()) >= l.keep) {
      throw httpError(NetworkErrors.CAPTURES_FULL, `${l.keep} captures are kept already (network.captures.keep): delete one first`);
    }
    const dir = this.o.elevation.captureDir;
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const at = new Date();
    const name = captureName(at, req.interface);
    const info: CaptureInfo = {
      name, interface: req.interface, filter, max_packets: req.packets, max_seconds: req.seconds, snaplen: SNAPLEN,
      started_at: at.toISOString(), ended_at: null, status: 'running', stop_reason: null, packets: null, bytes: 0, error: null, started_by: by,
    };
    const file = join(dir, name);
    const startedAt = Date.now();
    await this.files.save(info);
    let proc: CaptureProcess;
    try {
      proc = await this.o.elevation.capture({ interface: req.interface, packets: req.packets, seconds: Math.min(3600, req.seconds + HELPER_SLACK_S), filter, name }, who);
    } catch (err) {
      // Refused before anything ran (no privileges, a password needed): no trace of it is kept.
      await Promise.all([rm(file, { force: true }), rm(`${file}.json`, { force: true })]);
      throw err;
    }
    const run = { info, proc, reason: undefined as StopReason | undefined, ended: undefined as unknown as Promise<CaptureInfo> };
    this.running = run;
    const stopFor = (reason: StopReason) => { if (!run.reason) { run.reason = reason; proc.stop(); } };
    const timer = setTimeout(() => stopFor('time'), req.seconds * 1000);
    const sizer = setInterval(() => {
      void stat(file).then((s) => { if (s.size >= this.o.limits.max_bytes) stopFor('size'); }, () => undefined);
    }, SIZE_POLL_MS);
    timer.unref(); sizer.unref();
    run.ended = proc.done.then(async ({ code, stderr }) => {
      clearTimeout(timer); clearInterval(sizer);
      const ended: CaptureInfo = { ...info, status: 'done', ended_at: new Date().toISOString() };
      // tcpdump ends with 0 after its -c count and after the SIGINT of a stop; anything else is its failure.
      // A run that ended cleanly at its time limit without the timer's word (the helper's own bound) ended by time too.
      ended.stop_reason = run.reason ?? (code !== 0 ? 'error' : Date.now() - startedAt >= req.seconds * 1000 ? 'time' : 'packets');
      if (code !== 0 && !run.reason) ended.error = stderr.trim().split('\n').filter((l) => !/^(tcpdump: )?listening on|packets? (captured|received|dropped)/.test(l)).join(' ').slice(0, 500) || `tcpdump exited with ${code}`;
      try {
        const { bytes } = await this.files.bytes(name, this.o.limits.max_bytes);
        ended.packets = bytes.length ? decodePcap(bytes, 0, 0).total : 0;
        ended.bytes = bytes.length;
      } catch {
        ended.packets = 0;
      }
      await this.files.save(ended).catch((err) => this.o.log.warn('capture: cannot save its facts', { name, err }));
      if (this.running === run) this.running = undefined;
      return ended;
    });
    return info;
  }

  /** Ends the running capture as a user asked (`stopped`), and answers its final facts. */
  async stop(name: string): Promise<CaptureInfo> {
    const run = this.running;
    if (!run || run.info.name !== name) throw httpError(NetworkErrors.CAPTURE_NOT_FOUND, `no running capture is named ${name.slice(0, 80)}`);
    if (!run.reason) { run.reason = 'stopped'; run.proc.stop(); }
    return run.ended;
  }

  /** Waits for the running capture (tests, and the plugin's stop). */
  async settle(): Promise<void> {
    await this.running?.ended;
  }

  async delete(name: string): Promise<void> {
    if (this.running?.info.name === name) throw httpError(NetworkErrors.CAPTURE_RUNNING, `${name} is running; stop it first`);
    await this.files.delete(name);
  }
}

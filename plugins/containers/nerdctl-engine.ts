// nerdctl (containerd) has no API socket of its own to ask: its command is run, with a time limit and an output cap.
import { execFile } from 'node:child_process';
import { EngineRefused } from './docker-engine.js';
import { NoAnswer, Unreachable } from './socket-request.js';
import { MAX_CONTAINERS_PER_ENGINE, MAX_LIST_BYTES, type ContainerAction, type ContainerRow, type Engine, type EngineListing, type ListParser, type LogRequest } from './types.js';

/** One line of `nerdctl ps -a --format json` (Docker's `ps` template fields). */
interface NerdctlLine { ID?: string; Names?: string; Image?: string; Status?: string; State?: string; Ports?: string; CreatedAt?: string }

/** Rows from `nerdctl ps -a --format json`: one JSON object per line. */
export function nerdctlRows(stdout: string): ContainerRow[] {
  const rows: ContainerRow[] = [];
  for (const line of stdout.split('\n')) {
    if (!line.trim()) continue;
    const c = JSON.parse(line) as NerdctlLine;
    const status = c.Status ?? '';
    const state = (c.State || (/^up\b/i.test(status) ? 'running' : /^exited|^created/i.test(status) ? status.split(/\s/)[0] : 'unknown')).toLowerCase();
    const t = c.CreatedAt ? Date.parse(c.CreatedAt.replace(/ [A-Z]{3,4}$/, '')) : NaN;
    rows.push({
      env: 'nerdctl', id: c.ID ?? '', name: c.Names ?? c.ID ?? '', image: c.Image ?? '', state, status,
      created: Number.isFinite(t) ? Math.floor(t / 1000) : null, ports: c.Ports ? c.Ports.split(/,\s*/).filter(Boolean) : [], running: state === 'running',
    });
  }
  return rows;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export class NerdctlEngine implements Engine {
  readonly kind = 'nerdctl' as const;

  constructor(readonly endpoint: string, private readonly parse: ListParser) {}

  /** Runs nerdctl with an argument list (never a shell) within `timeoutMs`, keeping at most `maxBytes` of output. */
  private run(args: string[], timeoutMs: number, maxBytes: number): Promise<string>;
  private run(args: string[], timeoutMs: number, maxBytes: number, encoding: 'buffer'): Promise<Buffer>;
  private run(args: string[], timeoutMs: number, maxBytes: number, encoding: 'utf8' | 'buffer' = 'utf8'): Promise<string | Buffer> {
    return new Promise((resolve, reject) => {
      execFile(this.endpoint, args, { encoding, timeout: timeoutMs, maxBuffer: maxBytes, killSignal: 'SIGKILL', env: { ...process.env, LC_ALL: 'C' } }, (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        const e = err as NodeJS.ErrnoException & { killed?: boolean; code?: string | number };
        if (e.code === 'ENOENT') return reject(new Unreachable(`${this.endpoint} is not installed`));
        if (e.killed && e.code !== 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return reject(new NoAnswer(timeoutMs));
        reject(new EngineRefused(502, String(stderr || e.message).trim().split('\n').slice(-1)[0] ?? 'nerdctl failed'));
      });
    });
  }

  async list(timeoutMs: number): Promise<EngineListing> {
    // Up to MAX_LIST_BYTES: a large list is parsed off the event loop, as the engines' API answers are.
    const { containers: rows } = await this.parse('nerdctl', await this.run(['ps', '-a', '--format', 'json'], timeoutMs, MAX_LIST_BYTES, 'buffer'));
    return { containers: rows.slice(0, MAX_CONTAINERS_PER_ENGINE), pods: [], cut: rows.length > MAX_CONTAINERS_PER_ENGINE };
  }

  private checked(id: string): string {
    if (!ID.test(id)) throw new EngineRefused(400, `"${id}" is not a container id or name`);
    return id;
  }

  async running(id: string, timeoutMs: number): Promise<boolean | undefined> {
    const out = await this.run(['inspect', '--format', '{{.State.Running}}', this.checked(id)], timeoutMs, 64 * 1024).catch((err) => {
      if (err instanceof EngineRefused) return '';
      throw err;
    });
    return out.trim() === '' ? undefined : out.trim() === 'true';
  }

  async act(id: string, action: ContainerAction, force: boolean, timeoutMs: number): Promise<void> {
    const args = action === 'remove' ? ['rm', ...(force ? ['-f'] : []), this.checked(id)] : [action, this.checked(id)];
    await this.run(args, timeoutMs, 64 * 1024);
  }

  async logs(id: string, r: LogRequest): Promise<{ text: string; cut: boolean }> {
    try {
      return { text: await this.run(['logs', '--tail', String(r.tail), this.checked(id)], r.timeoutMs, r.maxBytes), cut: false };
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return { text: '', cut: true };
      throw err;
    }
  }

  shellPrefix(): string {
    return `${this.endpoint} exec -it`;
  }
}

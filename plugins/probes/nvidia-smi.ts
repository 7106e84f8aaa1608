import { execFile } from 'node:child_process';
import { nvidiaSmiFailed } from './errors.js';
import type { HostGpu } from './live-types.js';

/** nvidia-smi usually answers in 20-100 ms; a hung driver must not hold a live sample longer than this. */
export const NVIDIA_SMI_TIMEOUT_MS = 2000;
/** Its answer is a line per GPU: more than this is not nvidia-smi's answer. */
const MAX_OUTPUT_BYTES = 64 * 1024;

const FIELDS = ['index', 'name', 'utilization.gpu', 'memory.used', 'memory.total', 'temperature.gpu', 'power.draw', 'clocks.gr', 'clocks.max.gr'];

/** A number of nvidia-smi's CSV, or null for `[N/A]`, `[Not Supported]` and the like. */
function num(field: string | undefined): number | null {
  const n = Number(field?.trim());
  return field !== undefined && field.trim() !== '' && Number.isFinite(n) ? n : null;
}

/** nvidia-smi's `--format=csv,noheader,nounits` output as GPUs (MiB turned into bytes). */
export function parseNvidiaSmi(text: string): HostGpu[] {
  const out: HostGpu[] = [];
  for (const line of text.split('\n')) {
    const f = line.split(',').map((s) => s.trim());
    if (f.length < FIELDS.length || !/^\d+$/.test(f[0])) continue;
    const mib = (v: number | null) => (v === null ? null : v * 1024 * 1024);
    const busy = num(f[2]);
    out.push({
      id: `nvidia${f[0]}`, vendor: 'nvidia', source: 'nvidia-smi', name: f[1] || null,
      busy_percent: busy === null ? null : Math.min(100, Math.max(0, busy)),
      vram_used_bytes: mib(num(f[3])), vram_total_bytes: mib(num(f[4])),
      celsius: num(f[5]), power_w: num(f[6]), freq_mhz: num(f[7]), max_freq_mhz: num(f[8]),
    });
  }
  return out;
}

/**
 * Asks nvidia-smi for every NVIDIA GPU: fixed arguments, no shell, a timeout and an output bound. Rejects with
 * VIGIL_ERR_PROBES_NVIDIA_SMI when it fails, times out or prints no GPU line.
 */
export function queryNvidiaSmi(command = 'nvidia-smi', timeoutMs = NVIDIA_SMI_TIMEOUT_MS): Promise<HostGpu[]> {
  return new Promise((resolve, reject) => {
    execFile(command, [`--query-gpu=${FIELDS.join(',')}`, '--format=csv,noheader,nounits'],
      { timeout: timeoutMs, maxBuffer: MAX_OUTPUT_BYTES, windowsHide: true, killSignal: 'SIGKILL' },
      (err, stdout) => {
        if (err) return reject(nvidiaSmiFailed((err as NodeJS.ErrnoException & { killed?: boolean }).killed ? `no answer within ${timeoutMs} ms` : err.message));
        const gpus = parseNvidiaSmi(stdout);
        if (gpus.length === 0) return reject(nvidiaSmiFailed('no GPU in its answer'));
        resolve(gpus);
      });
  });
}

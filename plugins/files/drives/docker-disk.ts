import { execFile } from 'node:child_process';

/** One line of `docker system df`: images, containers, local volumes, build cache. */
export interface DockerDiskRow { type: string; total: number; active: number; size: string; reclaimable: string }

export type DockerDisk = { available: true; rows: DockerDiskRow[] } | { available: false; reason: string };

/** `docker system df` as JSON lines, 10 s at most; `available: false` with the reason when docker does not answer. */
export function readDockerDisk(timeoutMs = 10_000): Promise<DockerDisk> {
  return new Promise((resolve) => {
    execFile('docker', ['system', 'df', '--format', '{{json .}}'], { timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) {
        const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'docker is not installed'
          : (err as { killed?: boolean }).killed ? `docker did not answer within ${timeoutMs / 1000} s`
          : (stderr.trim().split('\n')[0] || err.message).slice(0, 300);
        resolve({ available: false, reason: why });
        return;
      }
      const rows: DockerDiskRow[] = [];
      for (const line of stdout.split('\n')) {
        if (!line.trim()) continue;
        try {
          const r = JSON.parse(line) as Record<string, string>;
          rows.push({ type: r.Type ?? '', total: Number(r.TotalCount ?? 0), active: Number(r.Active ?? 0), size: r.Size ?? '', reclaimable: r.Reclaimable ?? '' });
        } catch { /* a line docker prints for people */ }
      }
      resolve({ available: true, rows });
    });
  });
}

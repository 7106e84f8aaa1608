// The child process that converts the word vectors (glove-prepare.ts forks it), so that the serving process never
// holds the conversion's buffers. Argument: JSON { source, sourceVersion, target, limit?, simulateCrashAfterBytes? }.
// Sends { progress } messages while it reads (the share of the source read), then answers one IPC message:
// { ok: true, report, peakRssBytes } or { ok: false, message }.
import { convertGlove } from './glove-convert.js';

interface Request {
  source: string;
  sourceVersion: string;
  target: string;
  limit?: number;
  simulateCrashAfterBytes?: number;
}

async function main(): Promise<void> {
  const request = JSON.parse(process.argv[2] ?? '{}') as Request;
  try {
    const report = await convertGlove(request.source, request.sourceVersion, request.target, {
      limit: request.limit, simulateCrashAfterBytes: request.simulateCrashAfterBytes,
      onProgress: (progress) => process.send?.({ progress }),
    });
    // maxRSS is in kibibytes.
    process.send?.({ ok: true, report, peakRssBytes: process.resourceUsage().maxRSS * 1024 });
  } catch (err) {
    process.send?.({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
  process.disconnect?.();
}

void main();

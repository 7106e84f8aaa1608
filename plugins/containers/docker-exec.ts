// A shell inside a container through the Engine API: `POST /containers/{id}/exec` creates the exec (a TTY, stdin
// attached), `POST /exec/{id}/start` with `Upgrade: tcp` hijacks the connection into a raw two-way stream (with a TTY
// the output is not multiplexed), `POST /exec/{id}/resize` sets its size. Closing the stream closes the TTY, and the
// shell gets its hangup.
import type { Duplex } from 'node:stream';
import { request } from 'node:http';
import type { TerminalStream } from '@vigil/plugin-sdk';
import { EngineRefused } from './docker-engine.js';
import { apiRequest, engineMessage, NoAnswer, Unreachable } from './socket-request.js';

const SHELL = ['/bin/sh', '-c', 'if command -v bash >/dev/null 2>&1; then exec bash; else exec sh; fi'];

/** Starts the exec and hands back its hijacked socket, within `timeoutMs`. */
function hijack(socketPath: string, execId: string, timeoutMs: number): Promise<Duplex> {
  const body = Buffer.from(JSON.stringify({ Detach: false, Tty: true }));
  return new Promise((resolve, reject) => {
    const req = request({
      socketPath, path: `/exec/${execId}/start`, method: 'POST',
      headers: { host: 'localhost', 'content-type': 'application/json', 'content-length': body.length, connection: 'Upgrade', upgrade: 'tcp' },
    });
    const timer = setTimeout(() => { req.destroy(); reject(new NoAnswer(timeoutMs)); }, timeoutMs);
    req.on('upgrade', (_res, socket, head) => {
      clearTimeout(timer);
      if (head.length) socket.unshift(head);
      resolve(socket);
    });
    req.on('response', (res) => {
      clearTimeout(timer);
      res.resume();
      reject(new EngineRefused(res.statusCode ?? 502, `starting the shell: HTTP ${res.statusCode}`));
    });
    req.on('error', (err) => { clearTimeout(timer); reject(new Unreachable(err.message)); });
    req.end(body);
  });
}

/** Opens a shell (bash where the image has it, else sh) in container `id` of the daemon on `socketPath`. */
export async function openDockerShell(socketPath: string, id: string, size: { cols: number; rows: number }, timeoutMs: number): Promise<TerminalStream> {
  const api = { socketPath };
  const created = await apiRequest(api, `/containers/${encodeURIComponent(id)}/exec`, {
    method: 'POST', timeoutMs, maxBytes: 64 * 1024,
    body: { AttachStdin: true, AttachStdout: true, AttachStderr: true, Tty: true, Cmd: SHELL, Env: ['TERM=xterm-256color'] },
  });
  if (created.status !== 201) throw new EngineRefused(created.status, `creating the shell: ${engineMessage(created)}`);
  const execId = (JSON.parse(created.body.toString('utf8')) as { Id: string }).Id;
  if (!/^[0-9a-f]{64}$/.test(execId)) throw new EngineRefused(502, 'the daemon answered an exec id that is not one');
  const socket = await hijack(socketPath, execId, timeoutMs);
  const resize = (cols: number, rows: number) => {
    void apiRequest(api, `/exec/${execId}/resize?h=${rows}&w=${cols}`, { method: 'POST', timeoutMs, maxBytes: 4096 }).catch(() => undefined);
  };
  resize(size.cols, size.rows);
  let exited = false;
  return {
    onData: (listener) => { socket.on('data', (chunk: Buffer) => listener(chunk)); },
    onExit: (listener) => { socket.once('close', () => { exited = true; listener(); }); },
    write: (data) => { if (!socket.destroyed) socket.write(data); },
    resize,
    pause: () => socket.pause(),
    resume: () => socket.resume(),
    async close() {
      if (exited) return;
      socket.resume();
      socket.destroy();
    },
  };
}

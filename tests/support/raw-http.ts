import { connect, createServer, type Server, type Socket } from 'node:net';

/** What a scripted upstream does once a request head has arrived: write exact bytes, then end or reset. */
export type RawScript = (socket: Socket, head: string) => void;

/**
 * An upstream that speaks HTTP/1.1 by hand, so a test controls every byte of the response (an empty reason phrase,
 * a body cut by a reset) where node:http would normalise them. Each request head (up to the blank line) is handed
 * to the script registered for its path, else `fallback`; request bodies are ignored.
 */
export async function startRawUpstream(scripts: Record<string, RawScript>, fallback?: RawScript): Promise<{ port: number; heads: string[]; close(): void }> {
  const heads: string[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      let end: number;
      while ((end = pending.indexOf('\r\n\r\n')) !== -1) {
        const head = pending.slice(0, end);
        pending = pending.slice(end + 4);
        heads.push(head);
        const path = head.split(' ')[1]?.split('?')[0] ?? '';
        const script = scripts[path] ?? fallback ?? ((s) => { s.end('HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok'); });
        script(socket, head);
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as { port: number }).port,
    heads,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/**
 * Sends `request` (exact bytes) on a fresh connection and collects every byte that comes back until the gateway
 * closes the connection or `untilBytes` says enough.
 */
export function rawExchange(port: number, request: string | Buffer, untilBytes?: (got: Buffer) => boolean): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    const done = () => { socket.destroy(); resolve(Buffer.concat(chunks)); };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (untilBytes?.(Buffer.concat(chunks))) done();
    });
    socket.on('end', done);
    socket.on('close', done);
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' ? done() : reject(err)));
  });
}

/** The response's status line, exactly as sent (latin1, without CRLF). */
export function statusLine(response: Buffer): string {
  const text = response.toString('latin1');
  return text.slice(0, text.indexOf('\r\n'));
}

/** True once `got` holds a whole head and a Content-Length body. */
export function hasWholeResponse(got: Buffer): boolean {
  const text = got.toString('latin1');
  const end = text.indexOf('\r\n\r\n');
  if (end === -1) return false;
  const m = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, end));
  return m !== null && got.length >= end + 4 + Number(m[1]);
}

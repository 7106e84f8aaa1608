// An Express app in a process of its own, with @vigil/express on or off, driven over IPC by bench/middleware-cpu.ts:
// it reports its CPU (all threads) and, with the middleware on, flushes governance and shipping on request.
import { createServer } from 'node:http';
import express from 'express';
import { vigil } from '../../middleware/express/src/index.js';

const [mode, configPath, agentUrl] = process.argv.slice(2);
const app = express();
const mounted = mode === 'on' ? vigil({ configPath, agentUrl, token: 'bench-ingest-token-0123456789' }) : null;
if (mounted) app.use(mounted);
app.use(express.json());
app.all('*', (req, res) => {
  res.json({ ok: true, id: 1234, path: req.path, echo: req.body ?? null, password: 'server-side' });
});
const server = createServer(app);
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));

process.on('message', async (m: string) => {
  if (m === 'cpu') {
    const u = process.cpuUsage();
    process.send!({ cpu: u.user + u.system, stats: mounted?.stats() ?? null });
  } else if (m === 'flush') {
    await mounted?.flush();
    process.send!({ flushed: true });
  } else if (m === 'stop') {
    await mounted?.close();
    process.exit(0);
  }
});

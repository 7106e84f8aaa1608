import { parseDuration, type JsonSchema, type PluginContext, type PluginInstance, type TerminalSource } from '@vigil/plugin-sdk';
import { MAX_INPUT_FRAME_BYTES } from './client-frames.js';
import { TerminalErrors } from './errors.js';
import { HIGH_WATER_BYTES, LOW_WATER_BYTES } from './flow-control.js';
import { chooseShell } from './shell-launch.js';
import { TerminalSession } from './terminal-session.js';
import type { TerminalConfig } from './types.js';

/** Perch's path, kept so its users' habits and links carry over. */
export const TERMINAL_SOCKET_PATH = '/ws/term';

const statusSchema: JsonSchema = {
  title: 'TerminalStatus',
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'socket', 'shell', 'idle_timeout_ms', 'max_sessions', 'open', 'max_input_bytes', 'high_water_bytes', 'low_water_bytes'],
  properties: {
    enabled: { type: 'boolean', description: 'Whether `/ws/term` serves terminals (`terminal.enabled`).' },
    socket: { type: 'string', description: 'The websocket path.' },
    shell: { type: 'string', description: 'The shell each terminal runs, as a login shell.' },
    idle_timeout_ms: { type: 'integer', description: 'Quiet time after which a terminal is closed; 0 never.' },
    max_sessions: { type: 'integer' },
    open: { type: 'integer', description: 'Terminals open now, in this process.' },
    max_input_bytes: { type: 'integer', description: 'Largest client message; a larger one closes the socket with 1009.' },
    high_water_bytes: { type: 'integer', description: 'Unacknowledged output above which the shell is paused.' },
    low_water_bytes: { type: 'integer', description: 'Unacknowledged output below which it resumes.' },
  },
};

export function startTerminal(ctx: PluginContext, config: TerminalConfig): PluginInstance {
  const shell = chooseShell(config.shell);
  const idleTimeoutMs = parseDuration(config.idle_timeout);
  const sessions = new Set<TerminalSession>();
  let stopping = false;
  // Sessions other plugins open through the terminal (a shell in a container): `?source=<name>&target=…`.
  const sources = new Map<string, TerminalSource>();
  ctx.services.provide('terminalSources', {
    register(source) {
      if (!/^[a-z0-9-]{1,40}$/.test(source.name)) throw new Error(`terminal source name "${source.name}" is not lower case, digits and -`);
      if (sources.has(source.name)) throw new Error(`a terminal source named "${source.name}" is registered already`);
      sources.set(source.name, source);
      return () => { if (sources.get(source.name) === source) sources.delete(source.name); };
    },
  });

  ctx.metrics.gauge('sessions', { help: 'Web terminals open now.', collect: (g) => g.set(sessions.size) });
  const opened = ctx.metrics.counter('opened_total', { help: 'Web terminals opened, and refused for the session limit (outcome).', labelNames: ['outcome'] });

  ctx.http.route({
    method: 'GET', path: '/api/terminal', tags: ['terminal'],
    summary: 'Whether the web terminal is on, its shell, limits and open terminals',
    response: statusSchema,
    handler(rctx) {
      rctx.set('Cache-Control', 'no-store');
      return {
        enabled: config.enabled, socket: TERMINAL_SOCKET_PATH, shell, idle_timeout_ms: idleTimeoutMs,
        max_sessions: config.max_sessions, open: sessions.size, max_input_bytes: MAX_INPUT_FRAME_BYTES,
        high_water_bytes: HIGH_WATER_BYTES, low_water_bytes: LOW_WATER_BYTES,
      };
    },
  });

  if (config.enabled) {
    ctx.http.websocket({
      path: TERMINAL_SOCKET_PATH,
      summary: 'A login shell on a pty (query: cwd, cmd as base64, cols, rows). Client text frames: "i"+keystrokes, "r"+{"cols","rows"}, "a"+bytes rendered; server binary frames: output.',
      handler: ctx.contain('terminal socket', (ws, req, principal) => {
        if (stopping || sessions.size >= config.max_sessions) {
          opened.labels('refused').inc();
          ws.close(1013, `${TerminalErrors.LIMIT}: ${config.max_sessions} terminals are open`);
          return;
        }
        opened.labels('opened').inc();
        const session = new TerminalSession(ws, req, principal, {
          shell, idleTimeoutMs, log: ctx.log, killGraceMs: 2_000, sources,
          ended: (s) => sessions.delete(s),
        });
        sessions.add(session);
        session.open().catch((err) => {
          ctx.log.error('terminal: could not open', { err: err as Error });
          ws.close(1011, `${TerminalErrors.SPAWN}: internal error`);
          void session.close('open failed');
        });
      }),
    });
  }

  return {
    async stop() {
      stopping = true;
      await Promise.all([...sessions].map((s) => s.close('the server stopped')));
    },
  };
}

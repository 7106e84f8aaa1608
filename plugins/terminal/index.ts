import { accessSync, constants } from 'node:fs';
import { ConfigValueError, definePlugin, parseDuration } from '@vigil/plugin-sdk';
import { terminalConfigSchema } from './config-schema.js';
import type { TerminalConfig } from './types.js';

function checkTerminalConfig(config: TerminalConfig): void {
  let ms: number;
  try { ms = parseDuration(config.idle_timeout); } catch (err) { throw new ConfigValueError(['idle_timeout'], (err as Error).message); }
  if (ms !== 0 && ms < 1000) throw new ConfigValueError(['idle_timeout'], `"${config.idle_timeout}" is under the minimum of 1s (0 turns the timeout off)`);
  // A shell that cannot run would open terminals that close at once; say so before anything starts.
  if (config.shell !== undefined) {
    try { accessSync(config.shell, constants.X_OK); } catch { throw new ConfigValueError(['shell'], `${config.shell} is not an executable file`); }
  }
}

/**
 * The web terminal: a login shell on a pty over the websocket `/ws/term`, with flow control, an idle timeout and
 * the whole session ended when the socket closes. Off unless `terminal.enabled: true`; `GET /api/terminal` says
 * whether it is on either way, for the dashboard's page.
 */
export default definePlugin<TerminalConfig>({
  name: 'terminal',
  version: '0.1.0',
  configSchema: terminalConfigSchema,
  needs: ['http'],
  provides: ['terminalSources'],
  checkConfig: checkTerminalConfig,
  async setup(ctx, config) {
    const { startTerminal } = await import('./start-terminal.js');
    return startTerminal(ctx, config);
  },
});

// The containers' shell as a source of the web terminal (`/ws/term?source=container&target=docker:<id>`): the
// terminal keeps its guards (auth, Origin, session limit, flow control, idle timeout, audit lines) and this plugin
// opens the session through the engine's API. Docker and Podman (its compatible API) only: the other engines' shells
// are a terminal tab typing their CLI's exec.
import type { PluginContext } from '@vigil/plugin-sdk';
import { openDockerShell } from './docker-exec.js';
import type { Engine } from './types.js';

export const SHELL_SOURCE = 'container';

/** `docker:<id>` → the engine and the container; undefined when malformed. */
export function parseShellTarget(target: string): { kind: 'docker' | 'podman'; id: string } | undefined {
  const m = /^(docker|podman):([A-Za-z0-9][A-Za-z0-9_.-]{0,127})$/.exec(target);
  return m ? { kind: m[1] as 'docker' | 'podman', id: m[2] } : undefined;
}

/** Registers the source with the terminal when it is on; returns the function that removes it. */
export function registerShellSource(ctx: PluginContext, engines: () => Promise<Engine[]>, timeoutMs: number): (() => void) | undefined {
  const terminal = ctx.services.find('terminalSources');
  if (!terminal) return undefined;
  return terminal.register({
    name: SHELL_SOURCE,
    describe: (target) => `exec into ${target}`,
    async open(target, size) {
      const t = parseShellTarget(target);
      if (!t) throw new Error(`"${target.slice(0, 60)}" is not docker:<container> or podman:<container>`);
      const engine = (await engines()).find((e) => e.kind === t.kind);
      if (!engine) throw new Error(`no ${t.kind} environment was found`);
      return openDockerShell(engine.endpoint, t.id, size, timeoutMs);
    },
  });
}

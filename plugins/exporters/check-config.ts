// What the schema cannot say about the `exporters:` list, checked with the config (`vigil validate`, start, reload)
// so that each problem is reported with its file, line and key path, exit 2, before anything starts.
import { accessSync, constants } from 'node:fs';
import { ConfigValueError, type ConfigCheckContext } from '@vigil/plugin-sdk';
import { EXPORTABLE_TOPICS, type ExporterConfig } from './config-schema.js';

/** Names are unique, topics are exportable, and a wasm exporter's `next` names another exporter, without a loop. */
export function checkConsistency(configs: readonly ExporterConfig[]): void {
  const index = new Map<string, number>();
  configs.forEach((c, i) => {
    const first = index.get(c.name);
    if (first !== undefined) {
      throw new ConfigValueError([i, 'name'], `"${c.name}" is already the name of exporters[${first}]; each exporter needs its own name`);
    }
    index.set(c.name, i);
    (c.topics ?? []).forEach((topic, t) => {
      if (!(EXPORTABLE_TOPICS as readonly string[]).includes(topic)) {
        throw new ConfigValueError([i, 'topics', t], `"${topic}" is not exportable; exportable topics: ${EXPORTABLE_TOPICS.join(', ')}`);
      }
    });
  });
  const fedBy = new Map<string, string>();
  configs.forEach((c, i) => {
    if (c.type !== 'wasm') return;
    if (c.next === c.name) throw new ConfigValueError([i, 'next'], 'a wasm exporter cannot feed itself');
    if (!index.has(c.next)) {
      throw new ConfigValueError([i, 'next'], `no exporter is named "${c.next}"; exporters: ${[...index.keys()].join(', ')}`);
    }
    const other = fedBy.get(c.next);
    if (other !== undefined) {
      throw new ConfigValueError([i, 'next'], `"${c.next}" is already the next of wasm exporter "${other}"; give each its own`);
    }
    fedBy.set(c.next, c.name);
  });
  // One feeder per `next` leaves only whole cycles: each is reported at its first item in the list.
  configs.forEach((c, i) => {
    const seen: string[] = [];
    let at: ExporterConfig | undefined = c;
    while (at?.type === 'wasm' && !seen.includes(at.name)) {
      seen.push(at.name);
      at = configs[index.get(at.next)!];
    }
    if (seen.length > 0 && at?.name === c.name) {
      throw new ConfigValueError([i, 'next'], `wasm exporters feed each other in a loop (${[...seen, c.name].join(' -> ')})`);
    }
  });
}

/** Why `path` (resolved) cannot be run as an exec exporter's command, or undefined when it can. */
export function commandProblem(path: string): string | undefined {
  try {
    accessSync(path, constants.X_OK);
    return undefined;
  } catch (err) {
    return `${path} is not an executable file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}); check the path, or chmod +x it`;
  }
}

/** A command with a slash is a path from the config file; a bare name is left to PATH. */
export const isCommandPath = (command: string): boolean => /[\\/]/.test(command);

/** The plugin's `checkConfig`: consistency, then the exec commands given as paths. */
export function checkExportersConfig(configs: readonly ExporterConfig[], check?: ConfigCheckContext): void {
  checkConsistency(configs);
  if (!check) return;
  configs.forEach((c, i) => {
    if (c.type !== 'exec' || !isCommandPath(c.command)) return;
    const problem = commandProblem(check.resolvePath(c.command));
    if (problem !== undefined) throw new ConfigValueError([i, 'command'], problem);
  });
}

import type { Logger, PluginDefinition, PluginInstance } from '@vigil/plugin-sdk';
import { createPluginContext, ServiceDirectory, type CoreServices } from './context.js';
import { PluginError, PluginErrors } from './errors.js';

export interface PluginEntry {
  def: PluginDefinition;
  config: unknown;
  /** Content digests of the files the section reads (`configFiles`), by path: a reload compares them. */
  files?: Record<string, string>;
  /** Where a key path of the section is written in the file it came from (undefined for a section given as code). */
  locate?(keyPath: readonly (string | number)[]): { line: number; column: number } | undefined;
}

interface Slot {
  def: PluginDefinition;
  instance: PluginInstance | void;
  started: boolean;
  stopped: boolean;
}

const describe = (err: unknown) => (err instanceof Error ? err.message : String(err));

/**
 * Runs plugin lifecycles. Entries arrive ordered providers-first (see order.ts): setup and start walk that order,
 * so downstream plugins are ready before anything feeds them; stop walks it backwards, so upstream plugins stop
 * first and every stage can drain.
 */
export class PluginHost {
  private readonly slots: Slot[] = [];
  private readonly directory = new ServiceDirectory();
  private stopping: Promise<void> | undefined;

  constructor(private readonly entries: readonly PluginEntry[], private readonly core: CoreServices, private readonly log: Logger) {}

  get names(): string[] {
    return this.entries.map((e) => e.def.name);
  }

  /** Calls every plugin's setup in order. The first failure throws a PluginError naming the plugin. */
  async setup(): Promise<void> {
    for (const { def, config } of this.entries) {
      const ctx = createPluginContext(def, this.core, this.directory);
      try {
        const instance = await def.setup(ctx, config);
        this.slots.push({ def, instance, started: false, stopped: false });
      } catch (err) {
        throw new PluginError(PluginErrors.SETUP, def.name, `plugin ${def.name} failed in setup: ${describe(err)}`, err);
      }
    }
  }

  /** Starts plugins downstream-first. The first failure throws a PluginError naming the plugin. */
  async start(): Promise<void> {
    for (const slot of this.slots) {
      try {
        await slot.instance?.start?.();
        slot.started = true;
      } catch (err) {
        throw new PluginError(PluginErrors.START, slot.def.name, `plugin ${slot.def.name} failed to start: ${describe(err)}`, err);
      }
    }
  }

  /** Whether the running plugin `name` can take a changed config section (`PluginInstance.reload`). */
  canReload(name: string): boolean {
    return typeof this.slotOf(name)?.instance?.reload === 'function';
  }

  /** Hands the running plugin `name` its changed section; a refusal throws a PluginError naming the plugin. */
  async reload(name: string, config: unknown): Promise<void> {
    const slot = this.slotOf(name);
    try {
      await slot?.instance?.reload?.(config);
    } catch (err) {
      throw new PluginError(PluginErrors.RELOAD, name, `plugin ${name} refused its new config: ${describe(err)}`, err);
    }
  }

  private slotOf(name: string): Slot | undefined {
    return this.slots.find((s) => s.def.name === name && s.started && !s.stopped);
  }

  /**
   * Stops every plugin that was set up, upstream-first, each at most once, within `timeoutMs` overall. A plugin
   * whose stop throws or hangs is logged and skipped so the others still drain.
   */
  stop(timeoutMs: number): Promise<void> {
    this.stopping ??= this.stopAll(timeoutMs);
    return this.stopping;
  }

  private async stopAll(timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (const slot of [...this.slots].reverse()) {
      if (slot.stopped) continue;
      slot.stopped = true;
      const left = Math.max(0, deadline - Date.now());
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          Promise.resolve().then(() => slot.instance?.stop?.()),
          new Promise((_, reject) => {
            // Not unref'd: the caller awaits this bound, so it must keep the process alive until it fires.
            timer = setTimeout(() => reject(new Error(`did not stop within ${timeoutMs} ms`)), left);
          }),
        ]);
      } catch (err) {
        this.log.error(`plugin ${slot.def.name} failed to stop cleanly`, { plugin: slot.def.name, error: err });
      } finally {
        clearTimeout(timer);
      }
    }
  }
}

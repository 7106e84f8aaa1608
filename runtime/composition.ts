import type { CommandDefinition, PluginDefinition, SandboxFunction } from '@vigil/plugin-sdk';

/** Hooks the runtime gives the JavaScript sandbox, so its failures and restarts are counted where metrics live. */
export interface JsSandboxHooks {
  onFailure(reason: string): void;
  onRestart(cause: string): void;
  /** A call retried on a fresh process because the process it ran on died under it (`cause` as for a restart). */
  onRetry(cause: string): void;
}

/** The JavaScript sandbox as the runtime shares it between plugins. */
export interface JsSandboxHost {
  load(source: string, filename?: string): Promise<SandboxFunction>;
  close(): Promise<void>;
}

/**
 * What a product built on the runtime is made of. The runtime knows no plugin and no sandbox by name: the composition
 * root (app/) hands them in, so nothing in runtime/ imports a layer above it.
 */
export interface Composition {
  /** Every built-in plugin. Config composition and `vigil schema` need every schema, so all are loaded together. */
  builtins(): Promise<PluginDefinition[]>;
  /** Commands owned by parts that are not plugins (a sandbox's `vigil fn run`). Their modules must load fast. */
  commands?: readonly CommandDefinition[];
  /** Starts the JavaScript sandbox; called once, on a plugin's first use. */
  jsSandbox?(hooks: JsSandboxHooks): Promise<JsSandboxHost>;
}

import type { KeyPath } from './key-path.js';
import type { LocateTarget, Position } from './locate.js';

/** A config document, loaded and interpolated, with the way back from a key path to its place in the file. */
export interface LoadedConfig {
  /** The file as given (absolute when loaded with loadConfigFile). */
  file: string;
  /** Its directory: relative paths inside the config resolve from here. */
  dir: string;
  /** The top-level mapping. Validation fills schema defaults into it in place. */
  data: Record<string, unknown>;
  /**
   * Where `path` is written: its value (default) or its key. Undefined when the path is not in the file, e.g. a
   * key that is absent or was filled in from a default.
   */
  locate(path: KeyPath, at?: LocateTarget): Position | undefined;
}

/**
 * A LoadedConfig for data that did not come from a file (a plugin's test harness, an API). Problems about it carry
 * line 0 and column 0, and name `source` instead of a file.
 */
export function inlineConfig(data: Record<string, unknown>, source = '<inline config>', dir = process.cwd()): LoadedConfig {
  return { file: source, dir, data, locate: () => undefined };
}

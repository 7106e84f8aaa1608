import type { CommandDefinition } from '@vigil/plugin-sdk';

/** Commands owned by parts that are not plugins (the sandboxes): loaded only when the CLI lists its commands. */
export async function extraCommands(): Promise<CommandDefinition[]> {
  return [];
}

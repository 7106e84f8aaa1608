import { definePlugin, type CommandDefinition } from '@vigil/plugin-sdk';
import { checkCommand } from './check/command.js';
import { specCommand } from './openapi/command.js';
import { sdkCommand } from './sdk/command.js';
import { mockCommand } from './mock/command.js';
import { replayCommand } from './replay/command.js';

/**
 * The API toolchain: commands that read what `vigil run` learned about an API (its stored records and the fields
 * its routes use, `capture_fields`) and turn it into something a team uses: usage checks before a field is
 * removed, an OpenAPI document, typed clients, a stateful mock, and a replay against staging. It runs nothing
 * inside `vigil run`; each command opens the store itself, offline.
 */
const commands: CommandDefinition[] = [checkCommand, specCommand, sdkCommand, mockCommand, replayCommand];

export default definePlugin({
  name: 'apitools',
  version: '0.1.0',
  // No config section: the commands read the config file of the `vigil run` they follow (-config FILE).
  configKeys: [],
  commands,
  setup() {},
});

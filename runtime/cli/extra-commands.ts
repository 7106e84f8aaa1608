import type { CommandDefinition } from '@vigil/plugin-sdk';
import { fnCommand } from '../../sandbox/js/fn-command.js';
import { policyCommand } from './policy-command.js';

/**
 * Commands owned by parts that are not plugins (the sandboxes). Their modules are light: each loads its machinery
 * only when it runs.
 */
export function extraCommands(): CommandDefinition[] {
  return [fnCommand, policyCommand];
}

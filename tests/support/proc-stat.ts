import { readFileSync } from 'node:fs';

/**
 * The fields of a Linux /proc stat file (proc(5)) after the command name, which may itself hold spaces and
 * parentheses. Index 0 is the state, 11 and 12 user and system time in clock ticks, 16 the nice value.
 */
export function procStatFields(file: string): string[] {
  const stat = readFileSync(file, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

// The worker pool's task (plugin containers, pool `containers-list`): one large list answer parsed into rows.
import { parseList } from './list-parse.js';
import type { ListFormat, ParsedList } from './types.js';

export default function parseListTask(task: { format: ListFormat; body: Uint8Array }): ParsedList {
  return parseList(task.format, task.body);
}

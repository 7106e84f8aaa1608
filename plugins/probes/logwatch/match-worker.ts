import { matchLines, type MatchResult, type MatchTask } from './match-lines.js';

/** The `logwatch-match` pool's task: the watchers' patterns over one batch of new lines, off the event loop. */
export default function run(task: MatchTask): MatchResult {
  return matchLines(task);
}

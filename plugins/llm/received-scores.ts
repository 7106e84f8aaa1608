import type { ReceivedScore } from '@vigil/plugin-sdk';
import type { JsonGovernance } from '../../policies/govern-json.js';
import type { LangfuseScore } from './langfuse/score.js';
import type { LlmProject } from './types.js';

/**
 * Langfuse scores as the `llm.score.received` bus topic carries them to the evaluators plugin (which keeps them
 * apart from its eval results; plugins never import each other). Their free text goes through the project's redaction first, as a
 * trace's does, so that whoever stores them stores nothing unredacted: `comment` and `metadata` are governed
 * together, the project's JSON paths written over `$.metadata…` and its detectors over both. Text that cannot be
 * redacted is left out (the score itself still counts): failing the batch would make the SDK resend it for ever.
 */
export function receivedScores(
  project: LlmProject,
  scores: readonly LangfuseScore[],
  governJson: (value: unknown, rules: JsonGovernance) => unknown,
): ReceivedScore[] {
  return scores.map((score) => {
    const { comment, metadata, ...rest } = score;
    const out: ReceivedScore = { ...rest, project_id: project.id, source: 'langfuse' };
    if (comment === undefined && metadata === undefined) return out;
    let governed: { comment?: string; metadata?: unknown };
    try {
      governed = governJson({ comment, metadata }, project.settings.redact) as typeof governed;
    } catch {
      return out;
    }
    if (governed.comment !== undefined) out.comment = governed.comment;
    if (governed.metadata !== undefined) out.metadata = governed.metadata;
    return out;
  });
}

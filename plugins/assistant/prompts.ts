import { KNOWN_ACTIONS } from './proposals.js';
import type { ChatMessage } from './providers/types.js';

/** A piece of the page the user chose to send: health findings, log lines, a unit's status. */
export interface ContextItem {
  kind: string;
  title: string;
  content: string;
}

const actionList = Object.entries(KNOWN_ACTIONS)
  .map(([name, a]) => `- ${name}${a.field ? ` (with "${a.field}")` : ''}: ${a.label(a.field ? `<${a.field}>` : null)}`)
  .join('\n');

/** What the model is told: who it helps, that it cannot act, and the one way it may propose an action. */
export const SYSTEM_PROMPT = `You are the assistant of Vigil, a monitor of this Linux machine. Answer briefly and concretely, in plain text; use fenced code blocks for commands and file contents.
You cannot run anything. When an action would help, propose it and the user decides: write one fenced block of language vigil-action holding one JSON object, for example
\`\`\`vigil-action
{"action": "restart_unit", "unit": "nginx.service", "reason": "it failed after the upgrade"}
\`\`\`
Only these actions exist:
${actionList}
Anything else (a shell command, an edit) you give as text for the user to run. Values shown as [REDACTED] were masked before they reached you.`;

/** The messages a provider receives: the system prompt, the context the user kept, then the conversation. */
export function chatMessages(history: ChatMessage[], context: ContextItem[]): ChatMessage[] {
  const out: ChatMessage[] = [{ role: 'system', content: SYSTEM_PROMPT }];
  if (context.length) {
    out.push({ role: 'system', content: `Context from the dashboard page the user is on:\n\n${context.map((c) => `## ${c.title} (${c.kind})\n${c.content}`).join('\n\n')}` });
  }
  return [...out, ...history];
}

export interface HealthFindingInput {
  severity: string;
  title: string;
  detail: string;
}

/** perch's "AI report": a short report over the health score's findings, worst first. */
export function healthReportMessages(score: number | undefined, verdict: string | undefined, findings: HealthFindingInput[]): ChatMessage[] {
  const lines = findings.map((f) => `- [${f.severity}] ${f.title}: ${f.detail}`).join('\n');
  const head = score === undefined ? 'The health check of this machine found:' : `The health score of this machine is ${score}/100 (${verdict ?? 'no verdict'}). Its findings:`;
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    {
      role: 'user',
      content: `${head}\n${lines || '- nothing: every check passed'}\n\nWrite a short report (at most 150 words): what matters most and why, then what to do first. Propose the actions that fit.`,
    },
  ];
}

import type { ChannelMessage } from '@vigil/plugin-sdk';
import type { LlmDigestData } from './llm-digest-data.js';

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const count = (n: number) => n.toLocaleString('en-US');
const usd = (n: number) => `$${n.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The lines of the digest: each section a heading and its items, so the text and the HTML say the same. */
function sections(d: LlmDigestData): { heading: string; items: string[] }[] {
  // The change on the week before; none when that week had nothing to compare with.
  const before = (now: number, prev: number, show: (n: number) => string) => {
    if (prev === 0) return now === 0 ? '' : ' (none the week before)';
    const pct = ((now - prev) / prev) * 100;
    return ` (${pct >= 0 ? '+' : '−'}${Math.abs(pct).toFixed(1)}% on the week before: ${show(prev)})`;
  };
  return [
    { heading: 'Traffic', items: [
      `Requests: ${count(d.requests)}${before(d.requests, d.previous_requests, count)}`,
      `Cost: ${usd(d.cost_usd)}${before(d.cost_usd, d.previous_cost_usd, usd)}`,
    ] },
    { heading: 'Eval score by template', items: d.scores.length
      ? d.scores.map((s) => `${s.template}: ${s.avg_score.toFixed(2)} over ${count(s.samples)} result${s.samples === 1 ? '' : 's'}`)
      : ['No eval results this week.'] },
    { heading: 'New prompt versions', items: d.versions.length
      ? d.versions.map((v) => `${v.template} v${v.version} (${day(v.created_at)})`)
      : ['None.'] },
    { heading: 'Alerts fired', items: d.alerts.length
      ? d.alerts.map((a) => `${a.rule_name}: ${count(a.fired)} time${a.fired === 1 ? '' : 's'}`)
      : ['None.'] },
  ];
}

/** The weekly LLM digest as every channel sends it: a title, plain text, and an HTML body for mail. */
export function renderLlmDigest(d: LlmDigestData, dashboardUrl: string): ChannelMessage {
  const period = `${day(d.from)} to ${day(d.to - 1)}`;
  const parts = sections(d);
  const url = `${dashboardUrl.replace(/\/$/, '')}/llm`;
  return {
    title: `Weekly LLM digest: ${d.project}, ${period}`,
    text: [`Project ${d.project}, the week of ${period} (UTC).`, ...parts.map((p) => `${p.heading}\n${p.items.map((i) => `- ${i}`).join('\n')}`)].join('\n\n'),
    html: [`<p>Project <b>${escape(d.project)}</b>, the week of ${period} (UTC).</p>`,
      ...parts.map((p) => `<h3>${escape(p.heading)}</h3><ul>${p.items.map((i) => `<li>${escape(i)}</li>`).join('')}</ul>`),
      `<p><a href="${escape(url)}">Open the dashboard</a></p>`].join('\n'),
    severity: 'info',
    url,
  };
}

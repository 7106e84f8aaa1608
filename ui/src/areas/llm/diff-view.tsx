// A unified diff drawn as a reviewer reads one: removed lines red, added lines green, both numbered, with the count
// of each. The markers are in the text too (− and +), so the diff reads without colour.
import { parseUnifiedDiff } from './diff-lines.js';

const SIGN = { add: '+', del: '−', context: ' ' } as const;

export function DiffView({ diff, label }: { diff: string; label: string }) {
  const { lines, added, removed } = parseUnifiedDiff(diff);
  if (lines.length === 0) return <p class="muted">The two versions have the same text.</p>;
  return (
    <div class="diff">
      <p class="diff-summary">
        <span class="diff-added">+{added} {added === 1 ? 'line' : 'lines'}</span>
        <span class="diff-removed">−{removed} {removed === 1 ? 'line' : 'lines'}</span>
        {lines[0].kind === 'from' && <span class="muted">{lines[0].text} → {lines[1]?.text}</span>}
      </p>
      <div class="diff-scroll" role="region" aria-label={label} tabIndex={0}>
        <table class="diff-table">
          <caption class="sr-only">{label}: removed lines are marked −, added lines +</caption>
          <tbody>
            {lines.filter((l) => l.kind !== 'from' && l.kind !== 'to').map((l, i) => l.kind === 'hunk' ? (
              <tr key={i} class="diff-hunk"><td colSpan={4}>{l.text}</td></tr>
            ) : (
              <tr key={i} class={`diff-${l.kind}`}>
                <td class="diff-num" aria-hidden="true">{l.old ?? ''}</td>
                <td class="diff-num" aria-hidden="true">{l.new ?? ''}</td>
                <td class="diff-sign">{SIGN[l.kind as keyof typeof SIGN]}<span class="sr-only">{l.kind === 'add' ? ' added' : l.kind === 'del' ? ' removed' : ''}</span></td>
                <td class="diff-text">{l.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

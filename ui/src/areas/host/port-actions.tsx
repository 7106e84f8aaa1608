// Stop and Force for one row of the ports table: each asks first, in place, and says what happened. The server
// checks again, right before the signal, that the pid still holds this very socket.
import { useState } from 'preact/hooks';
import { Badge } from '../../components/badge.js';
import { CodeBlock } from '../../components/code-block.js';
import { postJson } from '../../data/api.js';
import { announce } from '../../shell/announcer.js';
import { ConfirmAction } from '../alerts/confirm-action.js';
import type { KillAnswer, PortRow } from './network-api.js';

export interface PortActionsProps {
  row: PortRow;
  /** The helper (or root) can signal another user's process. */
  elevated: boolean;
  onDone(): void;
}

export function PortActions({ row, elevated, onDone }: PortActionsProps) {
  const [shown, setShown] = useState(false);
  if (row.own) return <Badge tone="accent" title="Vigil's own socket: it has no buttons">{row.own}</Badge>;
  if (row.pid === null && row.elevated_command === null) return <span class="muted" title="No process could be read for this socket">—</span>;
  const kill = (force: boolean, viaHelper: boolean) => async () => {
    const answer = await postJson<KillAnswer>('/api/killport', { pid: row.pid, inode: row.inode, start_ticks: row.start_ticks ?? undefined, force, elevated: viaHelper }, { what: 'the signal' });
    announce(answer.message);
    onDone();
  };
  const what = <><strong>{row.name ?? 'the process'}</strong> (pid {row.pid}) on {row.protocol.toUpperCase()} port {row.port}</>;
  if (row.pid !== null && (row.can_signal || elevated)) {
    const viaHelper = !row.can_signal;
    return (
      <div class="port-actions">
        <ConfirmAction small label="Stop…" question={<>Send SIGTERM to {what}? It may save its work and exit.</>} confirm="Stop it" run={kill(false, viaHelper)} />
        <ConfirmAction small label="Force…" question={<>Send SIGKILL to {what}? It ends at once, without saving anything.</>} confirm="Force it" run={kill(true, viaHelper)} />
      </div>
    );
  }
  return (
    <div class="port-actions">
      {shown
        ? <CodeBlock label={`the command that stops the listener on port ${row.port}`} language="sh" code={row.elevated_command ?? `sudo kill -TERM ${row.pid}`} />
        : <button type="button" class="button button-ghost button-small" onClick={() => setShown(true)} title={`${row.user}'s listener: Vigil may not signal it`}>Elevated command…</button>}
    </div>
  );
}

// Host › Terminal: shells on this machine in the browser, when `terminal.enabled` is on; otherwise what it is and
// how to turn it on. xterm.js loads with this page's chunk only.
import { useState } from 'preact/hooks';
import { Card } from '../../../components/card.js';
import { CodeBlock } from '../../../components/code-block.js';
import { EmptyState } from '../../../components/empty-state.js';
import { ErrorState } from '../../../components/error-state.js';
import { PageHeader } from '../../../components/page-header.js';
import { Loading } from '../../../components/skeleton.js';
import type { TerminalStatus } from '../../../data/api.gen.js';
import { useResource } from '../../../data/use-resource.js';
import { shellInfo } from '../../../shell/shell-info.js';
import { takePendingSession } from './pending-command.js';
import { TerminalWorkspace } from './terminal-workspace.js';

const SNIPPET = 'terminal:\n  enabled: true\n  idle_timeout: 30m   # a quiet terminal is closed after this';

function TerminalOff({ loaded }: { loaded: boolean }) {
  const file = shellInfo.value?.config_file;
  return (
    <Card>
      <EmptyState icon="keyboard" title="The terminal is off">
        <p>
          It is a shell on this machine, as the user Vigil runs as, for anyone who holds the dashboard token or a
          session: turn it on only where that is what you want.
          {loaded ? ' The terminal plugin is loaded but not enabled.' : ''}
        </p>
        <p>
          Add these lines to {file ? <code class="inline-code">{file}</code> : 'the config file'}, then restart <code class="inline-code">vigil run</code>:
        </p>
        <CodeBlock code={SNIPPET} label="Terminal config" language="yaml" />
      </EmptyState>
    </Card>
  );
}

export default function TerminalPage() {
  // Without the plugin there is no /api/terminal to ask (a 404 would only add noise to the console).
  const loaded = shellInfo.value?.plugins.includes('terminal') ?? false;
  const status = useResource<TerminalStatus>(loaded ? '/api/terminal' : null, 'the terminal settings');
  const off = !loaded || status.error?.kind === 'not_found' || status.data?.enabled === false;
  const cwd = new URLSearchParams(window.location.search).get('cwd') ?? undefined;
  const [session] = useState(takePendingSession);
  return (
    <>
      <PageHeader title="Terminal"
        subtitle={status.data?.enabled
          ? <>A login shell (<code class="inline-code">{status.data.shell}</code>) per pane. Closing a pane or leaving this page ends its shell and everything it started.</>
          : 'A shell on this machine in the browser, with tabs and splits.'} />
      {status.loading && <Loading label="Loading the terminal settings" lines={3} />}
      {status.error && !off && <ErrorState error={status.error} onRetry={status.reload} />}
      {off && <TerminalOff loaded={loaded} />}
      {status.data?.enabled && <TerminalWorkspace initialCwd={cwd} initialSession={session} />}
    </>
  );
}

// The Database page: saved connections (SQLite files, PostgreSQL, MariaDB and MySQL servers), the schema tree of the one chosen, a
// table's rows page by page, and the statement editor with its CSV export. The connection, schema and table are in
// the address (?c=&s=&t=), so a view can be reloaded or linked.
import { useState } from 'preact/hooks';
import { Badge } from '../../../components/badge.js';
import { Card } from '../../../components/card.js';
import { CodeBlock } from '../../../components/code-block.js';
import { EmptyState } from '../../../components/empty-state.js';
import { ErrorState } from '../../../components/error-state.js';
import { PageHeader } from '../../../components/page-header.js';
import { Loading } from '../../../components/skeleton.js';
import { Switch } from '../../../components/switch.js';
import type { ApiError } from '../../../data/api-error.js';
import { deleteJson, patchJson } from '../../../data/api.js';
import { useResource } from '../../../data/use-resource.js';
import { announce } from '../../../shell/announcer.js';
import { here, navigate } from '../../../shell/router.js';
import { shellInfo } from '../../../shell/shell-info.js';
import { readText, withParams } from '../../../shell/url-state.js';
import { ConnectionForm } from './connection-form.js';
import { connectionPath, connectionTarget, KIND_NAMES, type DbConnection, type DbConnectionList, type DbTableList } from './db-api.js';
import { QueryEditor } from './query-editor.js';
import { TableBrowser } from './table-browser.js';
import { TablesCard } from './tables-card.js';

const ENABLE_SNIPPET = `dbbrowser:
  roots: [/home/me/projects]   # folders SQLite files may be opened from (default: the home folder)`;

function ConnectionItem({ c, current, onOpen }: { c: DbConnection; current: boolean; onOpen(): void }) {
  return (
    <li>
      <button type="button" class="db-connection" aria-current={current ? 'true' : undefined} onClick={onOpen}>
        <span class="db-connection-name">{c.name}</span>
        <span class="db-connection-target">{connectionTarget(c)}</span>
        <span class="db-connection-badges">
          <Badge>{KIND_NAMES[c.kind]}</Badge>
          <Badge tone={c.writable ? 'warning' : 'success'}>{c.writable ? 'Writes on' : 'Read-only'}</Badge>
          {c.has_password && <Badge tone="neutral">password saved</Badge>}
        </span>
      </button>
    </li>
  );
}

function ConnectionSettings({ c, onChanged, onDeleted }: { c: DbConnection; onChanged(): void; onDeleted(): void }) {
  const [error, setError] = useState<ApiError>();
  const [confirming, setConfirming] = useState(false);
  const setWritable = async (on: boolean) => {
    setError(undefined);
    try {
      await patchJson(connectionPath(c.id), { writable: on }, { what: 'the connection' });
      announce(on ? `Writes are on for ${c.name}; every statement is audited.` : `${c.name} is read-only again.`);
      onChanged();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  const remove = async () => {
    try {
      await deleteJson(connectionPath(c.id), { what: 'the connection' });
      announce(`${c.name} is deleted; the database itself is untouched.`);
      onDeleted();
    } catch (err) {
      setError(err as ApiError);
    }
  };
  return (
    <Card title={c.name} description={connectionTarget(c)}
      actions={confirming
        ? <><button type="button" class="button button-danger button-small" onClick={() => void remove()}>Delete {c.name}</button><button type="button" class="button button-ghost button-small" onClick={() => setConfirming(false)}>Keep</button></>
        : <button type="button" class="button button-ghost button-small" onClick={() => setConfirming(true)}>Delete…</button>}>
      <Switch label="Allow writes" checked={c.writable} onChange={(on) => void setWritable(on)}
        description={c.writable ? 'On: statements may change data; each one is recorded in the audit log.' : 'Off: the database itself refuses every write (SQLite opened read-only, a server in a read-only transaction).'} />
      {error && <ErrorState error={error} compact />}
    </Card>
  );
}

export default function DatabasePage() {
  const enabled = shellInfo.value?.plugins.includes('dbbrowser') ?? false;
  const { path, search } = here.value;
  const chosen = readText(search, 'c');
  const schema = readText(search, 's');
  const tableName = readText(search, 't');
  const adding = readText(search, 'add') === '1';
  const list = useResource<DbConnectionList>(enabled ? '/api/db/connections' : null, 'the connections');
  const current = list.data?.connections.find((c) => c.id === chosen);
  const tables = useResource<DbTableList>(current ? `${connectionPath(current.id)}/tables` : null, 'the tables');
  const table = tables.data?.tables.find((t) => t.schema === schema && t.name === tableName);
  const [sql, setSql] = useState('');
  const go = (updates: Record<string, string | null>) => navigate(path + withParams(search, updates));
  const header = <PageHeader title="Database" subtitle="SQLite files, PostgreSQL, MariaDB and MySQL servers: tables, rows and queries. Read-only unless a connection allows writes; the database itself refuses them." />;
  if (!enabled) {
    return <>{header}<EmptyState icon="record" title="The database browser is not on" actions={<CodeBlock label="the config that turns the database browser on" language="yaml" code={ENABLE_SNIPPET} />}>Add these lines to the config file and restart Vigil.</EmptyState></>;
  }
  const connections = list.data?.connections ?? [];
  const form = list.data && (
    <ConnectionForm roots={list.data.roots} onCancel={() => go({ add: null })}
      onAdded={(c) => { announce(`${c.name} is added, read-only${c.writable ? ' — no: with writes on' : ''}.`); list.reload(); go({ add: null, c: c.id, s: null, t: null }); }} />
  );
  return (
    <>
      {header}
      <div class="db-page">
        <Card title="Connections" class="db-connections"
          actions={!adding && connections.length > 0 && <button type="button" class="button button-primary button-small" onClick={() => go({ add: '1' })}>Add connection</button>}>
          {list.error && <ErrorState error={list.error} onRetry={list.reload} />}
          {list.loading && !list.data && <Loading label="Loading the connections" lines={3} />}
          {adding && form}
          {list.data && connections.length === 0 && !adding && (
            <EmptyState compact icon="record" title="No database yet"
              actions={<button type="button" class="button button-primary" onClick={() => go({ add: '1' })}>Add a connection</button>}>
              <p>Add a SQLite file (under {list.data.roots.join(', ') || 'the folders in dbbrowser.roots'}) or a PostgreSQL, MariaDB or MySQL server. Connections open read-only; writes are a switch per connection.</p>
            </EmptyState>
          )}
          {connections.length > 0 && (
            <ul class="db-connection-list" aria-label="Connections">
              {connections.map((c) => <ConnectionItem key={c.id} c={c} current={c.id === chosen} onOpen={() => go({ c: c.id, s: null, t: null })} />)}
            </ul>
          )}
        </Card>
        <div class="db-main stack">
          {!current && connections.length > 0 && (
            <EmptyState compact icon="arrow-right" title="Choose a connection"><p>Pick one from the list to see its tables and run queries.</p></EmptyState>
          )}
          {current && (
            <>
              <ConnectionSettings c={current} onChanged={list.reload} onDeleted={() => { list.reload(); go({ c: null, s: null, t: null }); }} />
              <TablesCard tables={tables} selected={table} onSelect={(t) => go({ s: t.schema, t: t.name })} />
              {table && <TableBrowser connectionId={current.id} table={table} onQuery={setSql} />}
              <QueryEditor connection={current} sql={sql} limits={list.data!.limits} />
            </>
          )}
        </div>
      </div>
    </>
  );
}

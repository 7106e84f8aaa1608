// The first steps: create a project (its key shown once), then send a first trace. Shown where there is nothing
// else to show yet, and on the projects page.
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { ErrorState } from '../../components/error-state.js';
import { Icon } from '../../components/icon.js';
import type { ApiError } from '../../data/api-error.js';
import { postJson } from '../../data/api.js';
import { Link } from '../../shell/router.js';
import { shellInfo, vigilCli } from '../../shell/shell-info.js';
import type { CreatedProject } from './llm-api.js';
import { shellWord } from './gate-form.js';

/**
 * The project key, once: copy it now, or rotate for another. It lives in this component's state only. A new project's
 * panel also shows how to send its first trace, the key already in the command, while the key is on screen anyway.
 */
export function KeyOnce({ project, keyText, onDone, rotated }: { project: string; keyText: string; onDone(): void; rotated?: boolean }) {
  const box = useRef<HTMLDivElement>(null);
  // Focus moves to the key so a screen reader reads the warning first, and a keyboard user can copy at once.
  useEffect(() => { box.current?.focus(); }, []);
  return (
    <div class="key-once" role="region" aria-label={`The key of ${project}`} tabIndex={-1} ref={box}>
      <p class="key-once-title"><Icon name="alert" /> Copy this key now: you won't see it again.</p>
      <p class="key-once-text">
        {rotated ? 'The new key of ' : 'The key of '}<strong>{project}</strong>. Vigil keeps only its SHA-256, so nobody can show it again;
        if it is lost, rotate the key for a new one. Keep it where your application reads it, as <code class="inline-code">VIGIL_PROJECT_KEY</code>.
      </p>
      <CodeBlock code={keyText} label={`the project key of ${project}`} language="project key" />
      {!rotated && (
        <div class="first-trace">
          <p class="first-trace-title">Send your first trace</p>
          <p class="muted">Paste this in a shell: the trace appears on the project's traces page a moment later.</p>
          <CodeBlock label="Send your first trace with curl" code={curlExample(window.location.origin, keyText)} />
        </div>
      )}
      <div class="form-actions">
        <button type="button" class="button button-primary" onClick={onDone}><Icon name="check" /> I have saved the key</button>
      </div>
    </div>
  );
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** A project name's field and the button that creates it; `onCreated` gets the key to show once. */
export function CreateProjectForm({ onCreated, autoFocus }: { onCreated(created: CreatedProject): void; autoFocus?: boolean }) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  useEffect(() => { if (autoFocus) input.current?.focus(); }, [autoFocus]);
  const submit = async (event: Event) => {
    event.preventDefault();
    const wanted = name.trim();
    if (!NAME.test(wanted)) {
      setProblem('1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit: checkout-bot, say.');
      input.current?.focus();
      return;
    }
    setProblem(undefined);
    setError(undefined);
    setBusy(true);
    try {
      const created = await postJson<CreatedProject>('/api/llm/projects', { name: wanted }, { what: 'the new project' });
      setName('');
      onCreated(created);
    } catch (err) {
      setError(err as ApiError);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="create-project" onSubmit={submit} noValidate>
      <div class="field field-grow">
        <label class="field-label" for={id}>Project name</label>
        <input id={id} ref={input} class="input" value={name} placeholder="checkout-bot" autoComplete="off" spellcheck={false}
          aria-invalid={problem ? true : undefined} aria-describedby={`${id}-hint`}
          onInput={(e) => setName((e.currentTarget as HTMLInputElement).value)} />
        {problem ? <p class="field-error" id={`${id}-hint`}>{problem}</p> : <p class="field-hint" id={`${id}-hint`}>One project per application or environment: its key sends traces, and reads only its own.</p>}
      </div>
      <button type="submit" class="button button-primary" disabled={busy}>{busy ? 'Creating…' : 'Create project'}</button>
      {error && <ErrorState error={error} compact />}
    </form>
  );
}

/** The CLI line that creates a project on this installation. */
export function createCommand(name = 'my-app'): string {
  const file = shellInfo.value?.config_file;
  return `${vigilCli()} project create ${name}${file ? ` -config ${shellWord(file)}` : ''}`;
}

/** No project at all: create one here (its key shown once), or with the CLI. */
export function NoProjectYet({ onCreated }: { onCreated(): void }) {
  const [created, setCreated] = useState<CreatedProject>();
  if (created) {
    return <KeyOnce project={created.project.name} keyText={created.key} onDone={() => { setCreated(undefined); onCreated(); }} />;
  }
  return (
    <EmptyState icon="llm" title="Create your first project">
      <p>A project gets its own key. Your application sends its LLM calls with it, and every page here shows one project's traces, prompts and costs.</p>
      <CreateProjectForm onCreated={setCreated} />
      <p>Or from a shell on this machine (it prints the key on its last line):</p>
      <CodeBlock label="Create a project with the CLI" code={createCommand()} />
    </EmptyState>
  );
}

/**
 * `curl` sending one trace to this control plane; one field group a line. The key is read from the environment, or
 * written in when it is given (a project key is letters, digits, `_` and `-`: safe inside double quotes).
 */
export function curlExample(origin: string, key?: string): string {
  return [
    `curl -X POST ${origin}/v1/traces \\`,
    `  -H "X-Service-Project-Key: ${key ?? '$VIGIL_PROJECT_KEY'}" \\`,
    '  -H "Content-Type: application/json" \\',
    `  -d '{"traces": [{`,
    '        "model": "gpt-4o-mini", "name": "hello", "latency_ms": 420,',
    '        "tokens": {"input": 12, "output": 3},',
    '        "input": [{"role": "user", "content": "Say hello"}],',
    '        "output": {"role": "assistant", "content": "Hello!"},',
    '        "prompt_template": {"name": "greeting", "raw": "Say hello"}',
    "      }]}'",
  ].join('\n');
}

/** How to install the Node client until it is published, as clients/node/README.md says. */
export const NODE_CLIENT_INSTALL = [
  '# in the clone of Vigil',
  'node scripts/build.mjs --types && npm pack ./clients/node',
  '# in your app',
  'npm install /path/to/vigil/vigil-llm-client-0.1.0.tgz',
].join('\n');

/** The Node client, as clients/node/README.md shows it. */
export function nodeExample(origin: string): string {
  return [
    "import OpenAI from 'openai';",
    "import { createClient } from '@vigil/llm-client';",
    '',
    'const vigil = createClient({',
    `  url: '${origin}',`,
    '  projectKey: process.env.VIGIL_PROJECT_KEY,',
    '});',
    'const openai = vigil.wrapOpenAI(new OpenAI());   // every call is now traced',
  ].join('\n');
}

/** A project without a single trace: how to send the first, by hand or from Node. The page is live meanwhile. */
export function NoTracesYet({ project }: { project: string }) {
  const origin = window.location.origin;
  return (
    <EmptyState icon="requests" title={`No traces in ${project} yet`}>
      <p>Send one with the project's key (set <code class="inline-code">VIGIL_PROJECT_KEY</code> to it first):</p>
      <CodeBlock label="Send a trace with curl" code={curlExample(origin)} />
      <p>Or wrap your OpenAI client with the Node client. It is not on the npm registry yet: pack it in the clone of Vigil, then install the tarball in your app:</p>
      <CodeBlock label="Install the Node client from the clone" code={NODE_CLIENT_INSTALL} />
      <CodeBlock label="Trace OpenAI calls from Node" language="javascript" code={nodeExample(origin)} />
      <p class="muted">This page is live: a trace shows up here a moment after it is sent. Lost the key? <Link href={`/llm/projects/${encodeURIComponent(project)}`}>Rotate it</Link>.</p>
    </EmptyState>
  );
}

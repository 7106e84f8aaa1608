// One operation of the API listing: a disclosure whose line shows method, path and summary, and whose body shows the
// description, credentials, parameters, request body and a curl command to copy.
import type { ComponentChildren } from 'preact';
import { Badge } from '../../components/badge.js';
import { CodeBlock } from '../../components/code-block.js';
import { TableFrame } from '../../components/table-frame.js';
import type { Tone } from '../../components/stat.js';
import {
  constraintTexts, credentialText, curlCommand, typeText, type Operation, type Parameter, type Schema, type SecurityScheme,
} from './openapi-listing.js';

/** Reads change nothing (accent), creates succeed (success), replacements and edits warn, deletions are danger. */
const METHOD_TONE: Record<string, Tone> = { GET: 'accent', POST: 'success', PUT: 'warning', PATCH: 'warning', DELETE: 'danger' };

/** Text with `code` spans, as the listing's descriptions write them. */
export function WithCode({ text }: { text: string }) {
  return <>{text.split(/(`[^`]+`)/).map((part, i) => (part.startsWith('`') && part.endsWith('`') && part.length > 2
    ? <code key={i} class="inline-code">{part.slice(1, -1)}</code>
    : part))}</>;
}

function TypeCell({ schema }: { schema: Schema | undefined }) {
  const limits = constraintTexts(schema);
  return (
    <>
      <code class="api-type">{typeText(schema)}</code>
      {limits.length > 0 && <span class="api-limits">{limits.join(' · ')}</span>}
    </>
  );
}

interface Field { name: string; where?: string; required: boolean; schema?: Schema; description?: string }

/**
 * Fields as a table; on a narrow screen each row becomes a small block (CSS), so the roles are explicit: a table
 * whose parts are restyled as blocks would otherwise lose its semantics in some browsers.
 */
function FieldTable({ caption, fields, showWhere }: { caption: string; fields: Field[]; showWhere: boolean }) {
  return (
    <TableFrame layout="cards" caption={caption} wrapClass="api-fields">
      <thead role="rowgroup">
        <tr role="row">
          <th scope="col" role="columnheader">Name</th>
          {showWhere && <th scope="col" role="columnheader">In</th>}
          <th scope="col" role="columnheader">Type</th>
          <th scope="col" role="columnheader">Description</th>
        </tr>
      </thead>
      <tbody role="rowgroup">
        {fields.map((f) => (
          <tr key={`${f.where}:${f.name}`} role="row">
            <td role="cell" class="api-field-name card-top"><code>{f.name}</code>{f.required && <span class="api-required">required</span>}</td>
            {showWhere && <td role="cell" class="api-field-where muted">{f.where}</td>}
            <td role="cell" class="api-field-type"><TypeCell schema={f.schema} /></td>
            <td role="cell" class="api-field-description card-wide">{f.description ? <WithCode text={f.description} /> : <span class="muted">—</span>}</td>
          </tr>
        ))}
      </tbody>
    </TableFrame>
  );
}

const paramFields = (params: Parameter[]): Field[] =>
  params.map((p) => ({ name: p.name, where: p.in, required: p.required === true, schema: p.schema, description: p.description ?? p.schema?.description }));

function bodyFields(schema: Schema): Field[] {
  const required = new Set(schema.required ?? []);
  return Object.entries(schema.properties ?? {}).map(([name, s]) => ({ name, required: required.has(name), schema: s, description: s.description }));
}

function Section({ title, children }: { title: string; children: ComponentChildren }) {
  return (
    <div class="api-section">
      <h4 class="detail-heading">{title}</h4>
      {children}
    </div>
  );
}

export function OperationItem({ op, origin, schemes }: { op: Operation; origin: string; schemes: Record<string, SecurityScheme> }) {
  const curl = curlCommand(op, origin, schemes);
  const fields = bodyFields(op.body?.schema ?? {});
  return (
    <details class="api-op">
      <summary class="api-op-line">
        <span class="api-method"><Badge tone={METHOD_TONE[op.method] ?? 'neutral'}>{op.method}</Badge></span>
        <code class="api-path">{op.path}</code>
        <span class="api-summary">{op.summary}</span>
        {op.credentials.length === 0 && <span class="api-open">No credential</span>}
      </summary>
      <div class="api-op-body">
        {op.description && <p class="api-description"><WithCode text={op.description} /></p>}
        <dl class="api-facts">
          <dt>Credentials</dt><dd>{credentialText(op, schemes)}</dd>
          <dt>Answers</dt><dd>{op.websocket ? '101, then a WebSocket' : op.status}</dd>
          {op.topics.length > 0 && <><dt>Tags</dt><dd>{op.topics.map((t) => <Badge key={t}>{t}</Badge>)}</dd></>}
        </dl>
        {op.parameters.length > 0 && (
          <Section title="Parameters">
            <FieldTable caption={`Parameters of ${op.method} ${op.path}`} fields={paramFields(op.parameters)} showWhere />
          </Section>
        )}
        {op.body && (
          <Section title={`Request body (${op.body.type})`}>
            {fields.length > 0
              ? <FieldTable caption={`Request body of ${op.method} ${op.path}`} fields={fields} showWhere={false} />
              : <p class="muted">{op.body.schema ? `A ${typeText(op.body.schema)}.` : 'Any content.'}</p>}
          </Section>
        )}
        <Section title="Example">
          {curl
            ? <CodeBlock label={`curl command for ${op.method} ${op.path}`} code={curl} />
            : <p class="muted">A WebSocket: open it from a page of this origin (the upgrade must carry a same-origin Origin header).</p>}
        </Section>
      </div>
    </details>
  );
}

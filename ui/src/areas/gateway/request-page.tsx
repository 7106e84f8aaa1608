import type { PageProps } from '../types.js';
import { ComingPage } from './coming-page.js';

export default function RequestPage({ params }: PageProps) {
  return (
    <ComingPage title="Request" icon="record" subtitle={`Record ${params.id}`}
      features={['The request and its answer as stored: method, path, status, timing', 'Headers, query and bodies, with every [REDACTED] value marked', 'The rules that matched, the labels and the metered tokens']}
      api={`/api/gateway/records/${encodeURIComponent(params.id)}`} />
  );
}

import { ComingPage } from './coming-page.js';

export default function RequestsPage() {
  return (
    <ComingPage title="Requests" icon="requests" subtitle="The request inspector: every governed record, newest first."
      features={['Records filtered by route, status, time and label', 'Headers and bodies as stored, with every [REDACTED] value marked', 'New records as they are captured']}
      api="/api/gateway/records?limit=20" />
  );
}

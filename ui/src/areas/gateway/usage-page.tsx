import { ComingPage } from './coming-page.js';

export default function UsagePage() {
  return (
    <ComingPage title="Usage and cost" icon="usage" subtitle="Requests, tokens and cost per tenant, and the billing export."
      features={['Requests, metered tokens and cost per tenant, busiest first', 'Meters over time for the last hour, day or week', 'The billing export: one CSV row per day and tenant']}
      api="/api/gateway/usage?range=24h" />
  );
}

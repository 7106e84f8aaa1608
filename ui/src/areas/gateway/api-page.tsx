import { ComingPage } from './coming-page.js';

export default function ApiPage() {
  return (
    <ComingPage title="API" icon="api" subtitle="The control plane's endpoints, from its OpenAPI listing."
      features={['Every endpoint the plugins registered, grouped by tag, with its parameters', 'Which credential each one takes (dashboard session, token, project key)', 'A ready-made curl command for each']}
      api="/api" />
  );
}

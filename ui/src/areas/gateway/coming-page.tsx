// A gateway page that this build registers but does not draw yet: what it will show, and the API that already
// answers the same question.
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { PageHeader } from '../../components/page-header.js';
import type { IconName } from '../types.js';

export interface ComingPageProps {
  title: string;
  subtitle: string;
  icon: IconName;
  /** What the page will show, one line each. */
  features: string[];
  /** A control-plane path that answers today. */
  api: string;
}

export function ComingPage({ title, subtitle, icon, features, api }: ComingPageProps) {
  const origin = window.location.origin;
  return (
    <>
      <PageHeader title={title} subtitle={subtitle} />
      <Card>
        <EmptyState icon={icon} title="Coming in this build">
          <p>This page is on its way. It will show:</p>
          <ul class="feature-list">{features.map((f) => <li key={f}>{f}</li>)}</ul>
          <p>The same data is available now from the control plane's API, with the dashboard token:</p>
          <CodeBlock label={`${title} API`} code={`curl -s -H "Authorization: Bearer $VIGIL_TOKEN" '${origin}${api}'`} />
        </EmptyState>
      </Card>
    </>
  );
}

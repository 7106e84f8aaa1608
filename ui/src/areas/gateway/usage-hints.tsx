// What the usage page says when it has nothing to count, or when traffic arrives without a tenant: the policy lines
// that name tenants, and a request to try.
import { Card } from '../../components/card.js';
import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { Icon } from '../../components/icon.js';
import { useResource } from '../../data/use-resource.js';
import { formatInteger, formatPercent } from '../../format/numbers.js';
import { Link } from '../../shell/router.js';
import { shellInfo } from '../../shell/shell-info.js';
import { reachableUrl, type ProxyStatus } from './gateway-api.js';
import { shareOf, tenantLabelSnippet, UNLABELLED } from './usage-figures.js';

/** Nothing was ever captured: label tenants in the policy, then send a request with the header (or start the proxy). */
export function NoUsageYet({ label }: { label: string }) {
  const info = shellInfo.value;
  const proxyOn = info?.plugins.includes('proxy') ?? false;
  const proxy = useResource<ProxyStatus>(proxyOn ? '/api/gateway/proxy' : null, 'the gateway\'s address');
  // While the running proxy's address loads, no address at all rather than a guess that would then change.
  const url = proxy.data ? reachableUrl(proxy.data.url, window.location.hostname)
    : proxy.loading ? undefined : `http://${window.location.hostname}:8080`;
  const file = info?.config_file ?? 'the config file';
  return (
    <Card>
      <EmptyState icon="usage" title="No usage yet">
        <p>
          Usage is counted per tenant, named by the policy's <code class="inline-code">{label}</code> label. Give the rules that match
          your API a label taken from a request header, in <code class="inline-code">{file}</code>:
        </p>
        <CodeBlock label="Policy rule with a tenant label" language="yaml"
          code={`rules:\n  - name: all-traffic\n    match: { path: /** }\n    ${tenantLabelSnippet(label)}`} />
        {/* Until the shell's info arrives, neither: a proxy-off notice that then turns into a request flickers. */}
        {!info ? null : proxyOn ? (
          <>
            <p>Then send requests through the gateway with the header. They show up here within seconds:</p>
            {url && <CodeBlock label="A request for tenant acme" code={`curl -i -H 'X-Tenant-Id: acme' ${url}/`} />}
          </>
        ) : (
          // A curl to :8080 would fail: nothing listens there until the config names the API behind the gateway.
          <p>
            The gateway's proxy is off, so no request reaches the policy yet. The <Link href="/gateway">overview</Link> shows
            the three lines that put it in front of your API, and the demo that fills every page in seconds.
          </p>
        )}
        <p class="muted">
          Cost comes from <code class="inline-code">capture.pricing</code> (per 1k metered tokens and per request); tokens from a
          rule's <code class="inline-code">meter.tokens</code>.
        </p>
      </EmptyState>
    </Card>
  );
}

/** Traffic was captured, but none in this range. */
export function NoUsageInRange({ rangeText, onWiden }: { rangeText: string; onWiden?: () => void }) {
  return (
    <Card>
      <EmptyState icon="usage" title={`No requests in ${rangeText}`} compact
        actions={onWiden && <button type="button" class="button button-secondary" onClick={onWiden}>Show the last 7 days</button>}>
        <p>Usage appears here as requests go through the gateway.</p>
      </EmptyState>
    </Card>
  );
}

/** Some requests carried no tenant label: they are counted, but billed to nobody. Says which label, and how to set it. */
export function UnlabelledHint({ requests, total, label }: { requests: number; total: number; label: string }) {
  return (
    <div class="notice usage-hint" role="note">
      <Icon name="alert" class="usage-hint-icon" />
      <p>
        <strong>{formatInteger(requests)} {requests === 1 ? 'request' : 'requests'} ({formatPercent(shareOf(requests, total))})</strong> carried
        no <code class="inline-code">{label}</code> label and are counted under {UNLABELLED}. To bill them, add{' '}
        <code class="inline-code">{tenantLabelSnippet(label)}</code> to the policy rules that match them, with the request
        header your clients send to name themselves.
      </p>
    </div>
  );
}

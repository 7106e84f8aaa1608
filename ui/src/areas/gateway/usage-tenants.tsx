// The usage page's table: every tenant of the range with its requests, tokens, cost and share of the total, busiest
// first by the chosen measure; tenants drawn in the chart carry their colour.
import { useMemo } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { Table, type Column } from '../../components/table.js';
import { countFormat, formatInteger, formatPercent, moneyFormat } from '../../format/numbers.js';
import type { Measure, TenantUsage, UsageList, UsageSeries } from './usage-api.js';
import { MEASURE_TEXT, shareOf, tenantColor, UNLABELLED } from './usage-figures.js';

function TenantCell({ row, color, label }: { row: TenantUsage; color: string | undefined; label: string }) {
  return (
    <span class="tenant-cell">
      <span class={`tenant-swatch${color ? '' : ' tenant-swatch-none'}`} style={color ? { background: `var(${color})` } : undefined} aria-hidden="true" />
      {row.tenant === ''
        ? <span class="tenant-unlabelled" title={`Requests without the ${label} label`}>{UNLABELLED}</span>
        : <span class="tenant-name">{row.tenant}</span>}
    </span>
  );
}

function columns(s: UsageSeries, measure: Measure, currency: string): Column<TenantUsage>[] {
  const total = s.totals[measure];
  return [
    {
      key: 'tenant', label: 'Tenant', width: '30%', value: (r) => r.tenant, card: 'top',
      render: (r) => <TenantCell row={r} color={tenantColor(s, r.tenant)} label={s.tenant_label} />,
    },
    { key: 'requests', label: 'Requests', align: 'end', value: (r) => r.requests, numbers: countFormat },
    // No rule meters this tenant's tokens: no data, not zero.
    { key: 'tokens', label: 'Tokens', align: 'end', value: (r) => r.tokens || null, numbers: countFormat },
    { key: 'cost', label: 'Cost', align: 'end', value: (r) => r.cost, numbers: (v) => moneyFormat(v, currency) },
    {
      key: 'share', label: `Share of ${MEASURE_TEXT[measure].noun}`, align: 'end', width: '22%', value: (r) => r[measure], card: 'main',
      render: (r) => {
        const share = shareOf(r[measure], total);
        return (
          <span class="share">
            <span class="share-bar" aria-hidden="true"><span style={{ width: `${share > 0 ? Math.max(2, share * 100) : 0}%` }} /></span>
            <span class="share-value">{formatPercent(share)}</span>
          </span>
        );
      },
    },
  ];
}

export function TenantTable({ list, s, measure }: { list: UsageList; s: UsageSeries; measure: Measure }) {
  const cols = useMemo(() => columns(s, measure, list.currency), [s, measure, list.currency]);
  const noun = MEASURE_TEXT[measure].noun;
  const shown = list.data.length;
  return (
    <Card title="Tenants" padded={false}
      description={`Busiest first by ${noun}; the share is of all ${noun} in the range`}>
      {/* Keyed by the measure: choosing another sorts by it again. */}
      <Table key={measure} caption="Usage per tenant" columns={cols} rows={list.data} rowKey={(r) => r.tenant}
        initialSort={{ key: 'share', direction: 'descending' }} />
      {shown < s.totals.tenants && (
        <p class="table-note">
          The {formatInteger(shown)} busiest of {formatInteger(s.totals.tenants)} tenants by requests. The billing export lists every one.
        </p>
      )}
    </Card>
  );
}

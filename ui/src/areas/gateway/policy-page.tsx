import { ComingPage } from './coming-page.js';

export default function PolicyPage() {
  return (
    <ComingPage title="Policy" icon="policy" subtitle="The rules that decide what of the traffic is captured, masked, labelled and metered."
      features={['Every rule in order, with what it restricts, redacts, labels, samples and meters', 'Which rules a path matches, and the decision they fold into', 'How often each rule matched in the last day']}
      api="/api" />
  );
}

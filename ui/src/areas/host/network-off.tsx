import { CodeBlock } from '../../components/code-block.js';
import { EmptyState } from '../../components/empty-state.js';
import { shellInfo } from '../../shell/shell-info.js';
import { NETWORK_SNIPPET } from './network-api.js';

/** Whether the network plugin runs (its section is in the config). */
export const networkOn = (): boolean => shellInfo.value?.plugins.includes('network') ?? false;

/** What the Network and Traffic pages show while the plugin is off: the line that turns it on. */
export function NetworkOff() {
  return (
    <EmptyState icon="host" title="The network pages are not on"
      actions={<CodeBlock label="the config that turns the network pages on" language="yaml" code={NETWORK_SNIPPET} />}>
      Add this line to the config file and restart Vigil.
    </EmptyState>
  );
}

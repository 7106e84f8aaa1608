// The privileged helper's password prompt on the Network and Traffic pages, shown only while the helper needs this
// session's password (sudo): the same prompt as the Packages page (privilege-card.tsx).
import { useResource } from '../../data/use-resource.js';
import type { PrivilegeStatus } from '../../data/api.gen.js';
import type { PortList } from './network-api.js';
import { PrivilegeCard } from './privilege-card.js';

export function ElevationPrompt({ elevation, onChange }: { elevation: PortList['elevation']; onChange(): void }) {
  const status = useResource<PrivilegeStatus>(elevation.password_needed ? '/api/privilege' : null, 'the privileged helper');
  if (!elevation.password_needed) return null;
  return <PrivilegeCard status={status.data} onChange={() => { status.reload(); onChange(); }} />;
}

// The privileged helper's state for a page that acts on system units: read only when system units are shown and the
// helper is what runs their actions; the privilege card's answer (after an unlock) replaces the read one.
import { useState } from 'preact/hooks';
import type { PrivilegeStatus } from '../../data/api.gen.js';
import { useResource } from '../../data/use-resource.js';

export function useSystemPrivilege(wanted: boolean): { status: PrivilegeStatus | undefined; set(s: PrivilegeStatus): void; reload(): void } {
  const read = useResource<PrivilegeStatus>(wanted ? '/api/privilege' : null, 'how actions run');
  const [changed, setChanged] = useState<PrivilegeStatus>();
  return {
    status: wanted ? changed ?? read.data : undefined,
    set: setChanged,
    reload: () => { setChanged(undefined); read.reload(); },
  };
}

// A proposed action: what it is and why, and a button that opens the page where it is done. Nothing runs from here:
// the page's own button, with its confirmation, does it.
import { Icon } from '../../components/icon.js';
import { navigate } from '../router.js';
import type { Proposal } from './answer-stream.js';

export function ProposalCard({ proposal, onOpen }: { proposal: Proposal; onOpen(): void }) {
  return (
    <div class="assistant-proposal" role="group" aria-label={`Proposed: ${proposal.label}`}>
      <p class="assistant-proposal-title">Proposed: {proposal.label}</p>
      {proposal.reason && <p class="assistant-proposal-reason">{proposal.reason}</p>}
      <p class="assistant-proposal-note">Nothing has run. Open {proposal.page} to review it and do it there, with its confirmation.</p>
      <button type="button" class="button button-secondary" onClick={() => { navigate(proposal.path); onOpen(); }}>
        Open {proposal.page} <Icon name="arrow-right" />
      </button>
    </div>
  );
}

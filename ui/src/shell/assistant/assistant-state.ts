// The assistant panel's state, reachable from anywhere: the shell's key handler opens it, a page offers its context
// (health findings, log lines) while it is shown, the health card asks for a report.
import { signal } from '@preact/signals';
import type { AssistantContextItem, AssistantHealthReportInput } from '../../data/api.gen.js';

export const assistantOpen = signal(false);
/** What the page on screen offers to send along; the panel shows each as a chip the user can look into or remove. */
export const offeredContext = signal<AssistantContextItem[]>([]);
/** A health report asked for (the health card's button): the panel shows the findings and a button to write it. */
export const pendingReport = signal<AssistantHealthReportInput | null>(null);

export function toggleAssistant(): void {
  assistantOpen.value = !assistantOpen.value;
}

/** Offers `items` while the caller's page is shown; returns the function that withdraws them (an effect's cleanup). */
export function offerContext(items: AssistantContextItem[]): () => void {
  offeredContext.value = items;
  return () => {
    if (offeredContext.value === items) offeredContext.value = [];
  };
}

export function askHealthReport(report: AssistantHealthReportInput): void {
  pendingReport.value = report;
  assistantOpen.value = true;
}

import type { WidgetDefinition } from '../types.js';

/** The LLM platform's tiles on the home grid. */
export const llmWidgets: WidgetDefinition[] = [
  {
    id: 'llm-cost',
    path: '/llm/projects',
    title: 'LLM cost',
    description: 'Spend this month across projects, the costliest first.',
    keywords: ['spend', 'budget', 'money', 'usd', 'tokens'],
    size: { w: 1, h: 1 },
    default: true,
    load: () => import('./widgets/llm-cost-widget.js'),
  },
  {
    id: 'llm-eval-score',
    path: '/llm/evals',
    title: 'Eval score',
    description: 'Average eval score over the last 24 hours, by project.',
    keywords: ['evals', 'quality', 'judge', 'score'],
    size: { w: 1, h: 1 },
    default: true,
    load: () => import('./widgets/eval-score-widget.js'),
  },
];

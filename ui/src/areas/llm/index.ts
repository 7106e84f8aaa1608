import type { Area } from '../types.js';
import { llmWidgets } from './widgets.js';

/** A trace's id: a UUID (the server's are v7; a client's own, OTLP's v5 and Langfuse's may be any version). */
const TRACE_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * LLM observability (plugins/llm): traces, prompt versions, stats and the CI gate of each project, and the projects
 * themselves. Its pages read `/api/llm/*` with the dashboard token; the page never holds a project key.
 */
export const llm: Area = {
  id: 'llm',
  title: 'LLM',
  icon: 'llm',
  description:
    'Traces of your application\'s LLM calls: prompt versions by content hash, cost and latency per version, and a ' +
    'CI gate that compares a prompt version before it ships.',
  requires: ['llm'],
  status: 'available',
  enableSnippet: 'llm: {}   # SQLite in data_dir, or the PostgreSQL of storage.url; nothing else to run',
  pages: [
    {
      path: '/llm',
      title: 'Traces',
      icon: 'requests',
      shortcut: 'g t',
      keywords: ['llm', 'calls', 'completions', 'chat', 'messages', 'errors', 'cost', 'tokens', 'latency', 'sessions', 'users'],
      load: () => import('./traces-page.js'),
    },
    { path: '/llm/traces/:id', title: 'Trace', nav: false, load: () => import('./trace-page.js') },
    {
      path: '/llm/sessions',
      title: 'Sessions',
      icon: 'requests',
      shortcut: 'g m',
      keywords: ['sessions', 'conversations', 'chats', 'replay', 'turns', 'session_id'],
      load: () => import('./sessions-page.js'),
    },
    { path: '/llm/sessions/:id', title: 'Session', nav: false, load: () => import('./session-page.js') },
    {
      path: '/llm/users',
      title: 'Users',
      icon: 'usage',
      shortcut: 'g w',
      keywords: ['users', 'end users', 'customers', 'user_id', 'cost per user', 'eval score per user'],
      load: () => import('./users-page.js'),
    },
    { path: '/llm/users/:id', title: 'User', nav: false, load: () => import('./user-page.js') },
    {
      path: '/llm/prompts',
      title: 'Prompts',
      icon: 'record',
      shortcut: 'g v',
      keywords: ['templates', 'versions', 'prompt versions', 'diff', 'compare', 'eval score', 'p95'],
      load: () => import('./prompts-page.js'),
    },
    { path: '/llm/prompts/:name', title: 'Prompt template', nav: false, load: () => import('./prompt-page.js') },
    {
      path: '/llm/stats',
      title: 'LLM stats',
      icon: 'overview',
      shortcut: 'g l',
      keywords: ['charts', 'requests', 'error rate', 'latency', 'p50', 'p95', 'p99', 'tokens', 'cost', 'spend'],
      load: () => import('./stats-page.js'),
    },
    {
      path: '/llm/evals',
      shortcut: 'g e',
      title: 'Evals',
      icon: 'check',
      keywords: ['evaluations', 'evals', 'llm judge', 'custom function', 'semantic similarity', 'score', 'rubric', 'golden set', 'quality'],
      load: () => import('./evals-page.js'),
    },
    {
      path: '/llm/gate',
      title: 'CI gate',
      icon: 'policy',
      shortcut: 'g c',
      keywords: ['gate', 'regression', 'ci', 'pull request', 'thresholds', 'baseline', 'candidate', 'vigil gate'],
      load: () => import('./gate-page.js'),
    },
    {
      path: '/llm/billing',
      shortcut: 'g b',
      title: 'Billing',
      icon: 'usage',
      keywords: ['billing', 'invoice', 'plans', 'limits', 'budget', 'spend', 'cost per project', 'tokens', 'csv', 'export', 'openmeter', 'cloudevents'],
      load: () => import('./billing-page.js'),
    },
    {
      path: '/llm/projects',
      shortcut: 'g k',
      title: 'Projects',
      icon: 'key',
      keywords: ['project keys', 'api key', 'rotate', 'budget', 'limits', 'redaction', 'retention', 'create project'],
      load: () => import('./projects-page.js'),
    },
    { path: '/llm/projects/:name', title: 'Project', nav: false, load: () => import('./project-page.js') },
  ],
  commands: [
    {
      id: 'llm.create-project',
      title: 'Create an LLM project',
      icon: 'llm',
      keywords: ['new project', 'project key', 'api key', 'llm'],
      run: (ctx) => ctx.navigate('/llm/projects?new=1'),
    },
    {
      id: 'llm.gate',
      title: 'Open the CI gate',
      icon: 'policy',
      keywords: ['gate', 'compare prompt versions', 'regression', 'ci'],
      run: (ctx) => ctx.navigate('/llm/gate'),
    },
    {
      id: 'llm.billing-csv',
      title: 'Export this month\'s LLM billing (CSV)',
      icon: 'download',
      keywords: ['billing', 'invoice', 'csv', 'export', 'usage'],
      run: (ctx) => ctx.download('/api/llm/billing.csv'),
    },
    {
      id: 'llm.errors',
      title: 'Show failed LLM calls',
      icon: 'alert',
      keywords: ['errors', 'llm', 'traces', 'failures'],
      run: (ctx) => ctx.navigate('/llm?status=error'),
    },
  ],
  searchRecords: {
    matches: (query) => TRACE_ID.test(query.trim()),
    find: async (query, signal) => (await import('./trace-search.js')).findTrace(query.trim(), signal),
  },
  names: { load: async (signal) => (await import('./name-search.js')).llmNames(signal) },
  widgets: llmWidgets,
};

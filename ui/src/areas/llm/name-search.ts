// The LLM platform's names for the palette: its projects and each project's prompt templates.
import { getJson } from '../../data/api.js';
import type { NamedItem } from '../types.js';
import { projectApi, templatePath, type ProjectList, type TemplateList } from './llm-api.js';

/** Templates looked up per project: the palette lists names, not history, so a project's first page is enough. */
const TEMPLATES_PER_PROJECT = 200;

export async function llmNames(signal: AbortSignal): Promise<NamedItem[]> {
  const { data: projects } = await getJson<ProjectList>('/api/llm/projects', { signal, what: 'the LLM projects' });
  const templates = await Promise.all(projects.map((p) => getJson<TemplateList>(projectApi(p.name, `/prompt-templates?limit=${TEMPLATES_PER_PROJECT}`),
    { signal, what: `the prompt templates of ${p.name}` }).then((t) => ({ project: p.name, list: t.data }), () => ({ project: p.name, list: [] }))));
  return [
    ...projects.map((p) => ({ id: `project:${p.name}`, title: p.name, detail: 'LLM project', keywords: ['project', 'key'], path: `/llm/projects/${encodeURIComponent(p.name)}` })),
    ...templates.flatMap(({ project, list }) => list.map((t) => ({
      id: `template:${project}:${t.name}`, title: t.name, detail: `Prompt template · ${project}${t.latest_version ? ` · v${t.latest_version}` : ''}`,
      keywords: ['prompt', 'template', project], path: templatePath(project, t.name),
    }))),
  ];
}

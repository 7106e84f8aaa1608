// The frame of every LLM page that shows one project's data: which project (the URL's `?project=`, else the one last
// shown, else the first), a picker to change it, and the states before there is a project to show.
import { signal } from '@preact/signals';
import type { ComponentChildren } from 'preact';
import { useEffect, useId } from 'preact/hooks';
import { Card } from '../../components/card.js';
import { ErrorState } from '../../components/error-state.js';
import { PageHeader } from '../../components/page-header.js';
import { Loading } from '../../components/skeleton.js';
import type { ApiError } from '../../data/api-error.js';
import { useResource } from '../../data/use-resource.js';
import { here, navigate } from '../../shell/router.js';
import { withParams } from '../../shell/url-state.js';
import type { Project, ProjectList } from './llm-api.js';
import { NoProjectYet } from './onboarding.js';

/** The project the LLM pages showed last: a page reached from the sidebar (no `?project=`) shows it again. */
const lastProject = signal<string | undefined>(undefined);

export interface ProjectChoice {
  projects: Project[] | undefined;
  project: Project | undefined;
  error: ApiError | undefined;
  reload(): void;
}

/** The projects, and the one this page shows. */
export function useProjectChoice(): ProjectChoice {
  const list = useResource<ProjectList>('/api/llm/projects', 'the LLM projects');
  const asked = new URLSearchParams(here.value.search).get('project');
  const projects = list.data?.data;
  const project = projects && (projects.find((p) => p.name === asked) ?? projects.find((p) => p.name === lastProject.value) ?? projects[0]);
  useEffect(() => {
    if (!project) return;
    lastProject.value = project.name;
    // The URL names the project shown, so a copied link shows the same one.
    if (asked !== project.name) navigate(here.value.path + withParams(here.value.search, { project: project.name }), { replace: true });
  }, [project?.name, asked]);
  return { projects, project, error: list.error, reload: list.reload };
}

/** Chooses the project the page shows; `searchFor` says what the URL keeps when it changes (default: only it). */
export function ProjectPicker({ projects, value, searchFor }: { projects: Project[]; value: string; searchFor?: (project: string) => string }) {
  const id = useId();
  const onChange = (event: Event) => {
    const name = (event.currentTarget as HTMLSelectElement).value;
    navigate(here.value.path + (searchFor ? searchFor(name) : `?project=${encodeURIComponent(name)}`));
  };
  return (
    <div class="project-picker">
      <label for={id} class="project-picker-label">Project</label>
      <select id={id} class="input" value={value} onChange={onChange}>
        {projects.map((p) => <option key={p.name} value={p.name}>{p.name}</option>)}
      </select>
    </div>
  );
}

export interface ProjectPageProps {
  title: string;
  subtitle: ComponentChildren;
  /** Controls beside the picker (a range, the live badge). */
  actions?: (project: Project) => ComponentChildren;
  searchFor?: (project: string) => string;
  children: (project: Project, projects: Project[]) => ComponentChildren;
}

/** A page of one project's data: its header with the project picker, or what to do while there is no project. */
export function ProjectPage({ title, subtitle, actions, searchFor, children }: ProjectPageProps) {
  const choice = useProjectChoice();
  const { projects, project } = choice;
  return (
    <>
      <PageHeader title={title} subtitle={subtitle}
        actions={project && projects && <>
          {actions?.(project)}
          <ProjectPicker projects={projects} value={project.name} searchFor={searchFor} />
        </>} />
      {choice.error && <ErrorState error={choice.error} onRetry={choice.reload} />}
      {!projects && !choice.error && <Loading label="Loading the LLM projects" lines={6} />}
      {projects && !project && <Card><NoProjectYet onCreated={choice.reload} /></Card>}
      {project && projects && children(project, projects)}
    </>
  );
}

import { httpError, type PromptVersionChange, type Store } from '@vigil/plugin-sdk';
import { governJson, type JsonGovernance } from '../../../policies/govern-json.js';
import type { DetectorKind } from '../../../policies/detectors/types.js';
import { LlmErrors } from '../errors.js';
import { normaliseTemplate, templateHash } from '../normalise-template.js';
import { PromptVersions } from '../prompt-versions.js';
import type { LlmProject } from '../types.js';
import { checkSettableLabel, LATEST } from './label-name.js';
import { PromptLabels, type LabelMove } from './prompt-labels.js';
import { chatEntries, chatText, checkTemplateName, configText, promptText, type ChatEntry, type PromptType } from './prompt-text.js';

/** A version as applications fetch it. */
export interface KeptPrompt {
  name: string;
  version: number;
  hash: string;
  type: PromptType;
  /** The normalised text as kept (the project's detectors applied); a chat prompt's is its messages as JSON. */
  text: string;
  /** A chat prompt's messages; null for a text prompt. */
  messages: ChatEntry[] | null;
  /** Labels naming this version, `latest` included when it is the newest. */
  labels: string[];
  config: unknown;
  commit_message: string | null;
  /** Who made it: `detected` for a version first seen in traffic. */
  created_by: string;
  created_at: number;
}

export interface CreateRequest {
  name: unknown;
  type?: PromptType;
  prompt: unknown;
  config?: unknown;
  labels?: string[];
  commit_message?: string | null;
}

/** Which version to read: a number, or a label (`latest` included). */
export type VersionPick = { version: number } | { label: string };

type VersionRow = { version: number; hash: string; text: string; created_at: number; type: string | null; config: string | null; commit_message: string | null; created_by: string | null };

/**
 * The prompt registry: versions teams create (numbered and hashed exactly as detected ones, so a create of a text
 * already seen in traffic answers that version), labels that point to versions, and their history. Creating runs the
 * project's detectors over the text on this thread, bounded by MAX_PROMPT_CHARS (prompt-text.ts).
 */
export class PromptRegistry {
  readonly labels: PromptLabels;
  private readonly versions: PromptVersions;
  private readonly detectRules = new WeakMap<readonly DetectorKind[], JsonGovernance>();

  constructor(private readonly store: Store, private readonly announce: (change: PromptVersionChange) => void) {
    this.labels = new PromptLabels(store);
    this.versions = new PromptVersions(store);
  }

  /**
   * Keeps a version of `name` (a new number for an unseen text, the existing one otherwise) and points `labels` at it.
   * `created` says whether this call made the number. 409 when the text's version already has another type or config.
   */
  async create(project: LlmProject, request: CreateRequest, actor: string, now = Date.now()): Promise<{ prompt: KeptPrompt; created: boolean }> {
    const name = checkTemplateName(request.name);
    const type = request.type ?? 'text';
    const labels = [...new Set(request.labels ?? [])].map(checkSettableLabel);
    const config = configText(request.config);
    const { text: raw, entries } = promptText(type, request.prompt);
    const text = normaliseTemplate(raw);
    if (text === '') throw httpError(LlmErrors.PROMPT_INVALID, 'the prompt is empty once normalised (blank lines and trailing spaces removed)');
    const hash = templateHash(text);
    // As detected versions: the hash is of the text as sent, the kept text has the project's detectors applied.
    const kept = () => this.redacted(project, text, entries);
    const resolved = await this.versions.resolve(project, name, hash, kept, now);
    if (resolved.change) this.announce(resolved.change);
    const details = this.store.table('prompt_details');
    await this.store.run(
      `INSERT INTO ${details} (project_id, template, version, type, config, commit_message, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      [project.id, name, resolved.version, type, config, request.commit_message ?? null, resolved.created ? actor : `detected; described by ${actor}`, now]);
    const current = await this.read(project.id, name, { version: resolved.version });
    if (current.type !== type || (config !== null && JSON.stringify(current.config) !== config)) {
      throw httpError(LlmErrors.PROMPT_CONFLICT, `version ${resolved.version} of "${name}" has this text already, as a ${current.type} prompt${current.config === null ? ' without a config' : ` with config ${JSON.stringify(current.config)}`}`);
    }
    for (const label of labels) await this.labels.move(project.id, name, label, resolved.version, actor, now);
    return { prompt: labels.length ? await this.read(project.id, name, { version: resolved.version }) : current, created: resolved.created };
  }

  /** One version of `name`, by number or label; 404 when there is none. */
  async read(projectId: string, name: string, pick: VersionPick): Promise<KeptPrompt> {
    const versions = this.store.table('prompt_versions');
    const newest = await this.newest(projectId, name);
    if (newest === null) throw httpError(LlmErrors.VERSION_NOT_FOUND, `the project has no prompt ${JSON.stringify(name)}`);
    let version: number;
    if ('version' in pick) version = pick.version;
    else if (pick.label === LATEST) version = newest;
    else {
      const named = await this.labels.versionOf(projectId, name, pick.label);
      if (named === null) throw httpError(LlmErrors.PROMPT_LABEL_NOT_FOUND, `prompt ${JSON.stringify(name)} has no version labelled ${JSON.stringify(pick.label)}`);
      version = named;
    }
    const rows = await this.store.query<VersionRow>(
      `SELECT v.version, v.hash, v.text, v.created_at, d.type, d.config, d.commit_message, d.created_by
       FROM ${versions} v LEFT JOIN ${this.store.table('prompt_details')} d
         ON d.project_id = v.project_id AND d.template = v.template AND d.version = v.version
       WHERE v.project_id = ? AND v.template = ? AND v.version = ?`, [projectId, name, version]);
    if (!rows.length) throw httpError(LlmErrors.VERSION_NOT_FOUND, `the project has no version ${version} of prompt ${JSON.stringify(name)}`);
    const r = rows[0];
    const labels = await this.labels.ofVersion(projectId, name, version);
    if (version === newest) labels.push(LATEST);
    const type: PromptType = r.type === 'chat' ? 'chat' : 'text';
    return {
      name, version, hash: r.hash, type, text: r.text, messages: type === 'chat' ? chatEntries(r.text) : null, labels: labels.sort(),
      config: r.config === null ? null : JSON.parse(r.config), commit_message: r.commit_message,
      created_by: r.created_by ?? 'detected', created_at: Number(r.created_at),
    };
  }

  /** Points `label` at version `version` of `name` (null removes it); 404 when that version does not exist. */
  async moveLabel(projectId: string, name: string, label: string, version: number | null, actor: string): Promise<LabelMove | null> {
    checkSettableLabel(label);
    if (version !== null) await this.read(projectId, name, { version });
    else if (await this.labels.versionOf(projectId, name, label) === null) {
      throw httpError(LlmErrors.PROMPT_LABEL_NOT_FOUND, `prompt ${JSON.stringify(name)} has no label ${JSON.stringify(label)}`);
    }
    return this.labels.move(projectId, name, label, version, actor);
  }

  /** The newest version number of `name`, or null when it has none (numbers have no gaps: prompt-versions.ts). */
  async newest(projectId: string, name: string): Promise<number | null> {
    const [{ latest }] = await this.store.query<{ latest: number | null }>(
      `SELECT MAX(version) AS latest FROM ${this.store.table('prompt_versions')} WHERE project_id = ? AND template = ?`, [projectId, name]);
    return latest === null ? null : Number(latest);
  }

  private redacted(project: LlmProject, text: string, entries: ChatEntry[] | null): string {
    const detect = project.settings.redact.detect;
    let rules = this.detectRules.get(detect);
    if (!rules) this.detectRules.set(detect, rules = { detect });
    // A chat prompt's messages are redacted as values, so the markers never break its JSON.
    return entries ? normaliseTemplate(chatText(governJson(entries, rules) as ChatEntry[])) : governJson(text, rules) as string;
  }
}

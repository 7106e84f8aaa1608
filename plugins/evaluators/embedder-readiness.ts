// Where the embedder's first preparation stands (the local word vectors take seconds to convert and load, once), for
// the dashboard to show "preparing embeddings (one time)" with progress instead of a test that seems to hang.
import type { PreparationStep } from './embedder-contract.js';

export interface EmbedderStatus {
  /** `idle`: not asked for yet in this process; `failed`: the last preparation failed (the next eval tries again). */
  state: 'idle' | 'preparing' | 'ready' | 'failed';
  /** While preparing: loading the module, converting the word vectors (once per data directory), or loading them. */
  step: 'module' | PreparationStep | null;
  /** The step's share done, 0 to 1, when it is known. */
  progress: number | null;
  /** How long the preparation has taken (so far, or in all once done); null before it started. */
  elapsed_ms: number | null;
  /** The method prepared (openai, glove-sif, lexical), once ready. */
  method: string | null;
  reason: string | null;
}

/** One process's embedder preparation, told by the code that makes the embedder. */
export class EmbedderReadiness {
  private current: EmbedderStatus = { state: 'idle', step: null, progress: null, elapsed_ms: null, method: null, reason: null };
  private started = 0;
  private ended = 0;

  constructor(private readonly now: () => number = () => performance.now()) {}

  begin(): void {
    this.started = this.now();
    this.ended = 0;
    this.current = { state: 'preparing', step: 'module', progress: null, elapsed_ms: 0, method: null, reason: null };
  }

  step(step: EmbedderStatus['step'], progress: number | null): void {
    if (this.current.state === 'preparing') this.current = { ...this.current, step, progress };
  }

  ready(method: string, reason?: string): void {
    this.ended = this.now();
    this.current = { state: 'ready', step: null, progress: null, elapsed_ms: null, method, reason: reason ?? null };
  }

  failed(reason: string): void {
    this.ended = this.now();
    this.current = { state: 'failed', step: null, progress: null, elapsed_ms: null, method: null, reason };
  }

  status(): EmbedderStatus {
    const elapsed = this.started === 0 ? null : Math.round((this.ended || this.now()) - this.started);
    return { ...this.current, elapsed_ms: elapsed };
  }
}

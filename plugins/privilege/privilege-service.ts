import {
  httpError, VigilError, type AuthPrincipal, type Logger, type PluginAuditEntry, type PrivilegedJobRequest, type PrivilegedRequest,
  type PrivilegedResult, type PrivilegedVerb, type PrivilegeService, type PrivilegeStatus,
} from '@vigil/plugin-sdk';
import { elevatedCommand, systemProgram, type Elevation } from './elevation.js';
import { PrivilegeErrors } from './errors.js';
import type { JobRegistry } from './job-registry.js';
import type { PasswordCache } from './password-cache.js';
import { runProgram } from './run-program.js';
import { planVerb, type VerbPlan, type VerbSettings } from './verbs.js';

export interface PrivilegeDeps {
  elevation: Elevation;
  passwords: PasswordCache;
  jobs: JobRegistry;
  settings: VerbSettings;
  audit(entry: PluginAuditEntry): Promise<void>;
  log: Logger;
}

/** Who a principal is, as the job list and the log show it. */
export function actorOf(principal: AuthPrincipal | undefined): string {
  if (!principal) return 'vigil';
  return principal.user?.email ?? (principal.user ? 'dashboard token' : `${principal.scheme}`);
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

/** The audit entry's status and detail for a run's outcome. */
function outcome(result: PrivilegedResult): { status: number; detail: string } {
  const how = `via ${result.method}, ${seconds(result.duration_ms)}`;
  if (result.cancelled) return { status: 499, detail: `cancelled ${how}` };
  if (result.ok) return { status: 200, detail: `${result.timed_out ? 'ended at its time limit' : 'exit 0'} ${how}` };
  if (result.timed_out) return { status: 504, detail: `stopped at its time limit ${how}` };
  return { status: 500, detail: `${result.exit_code === null ? `ended by ${result.signal}` : `exit ${result.exit_code}`} ${how}` };
}

/** A run that passed every check and may start. */
interface Ready {
  plan: VerbPlan;
  command: { command: string; argv: string[]; env: Record<string, string> };
  password: Buffer | undefined;
}

/**
 * The `privilege` service: checks a verb's arguments, finds its program, takes the session's password when sudo
 * needs one, runs one package change at a time, and writes every run (refused or not) to the audit log.
 */
export class Privilege implements PrivilegeService {
  private packagesBusy = false;

  constructor(private readonly deps: PrivilegeDeps) {}

  get captureDir(): string {
    return this.deps.settings.captureDir;
  }

  get aptOptions(): readonly string[] {
    return this.deps.settings.aptOptions;
  }

  status(principal: AuthPrincipal | undefined): PrivilegeStatus {
    const { elevation, passwords, settings } = this.deps;
    const expires = elevation.passwordNeeded ? passwords.expiresAt(principal) : null;
    return {
      method: elevation.method, user: settings.user,
      password_needed: elevation.passwordNeeded && expires === null,
      unlocked: expires !== null, expires_at: expires === null ? null : new Date(expires).toISOString(),
      note: elevation.note,
    };
  }

  check(verb: PrivilegedVerb, args: readonly string[]): void {
    planVerb(verb, args, this.deps.settings);
  }

  async run(request: PrivilegedRequest): Promise<PrivilegedResult> {
    const ready = await this.prepare(request);
    return this.execute(request, ready);
  }

  async startJob(request: PrivilegedJobRequest): Promise<string> {
    const ready = await this.prepare(request);
    const { jobs } = this.deps;
    const job = jobs.create({ title: request.title, verb: request.verb, args: request.args, actor: actorOf(request.principal) });
    void this.execute({ ...request, signal: job.abort.signal, onOutput: (text) => jobs.append(job, text) }, ready).then((result) => {
      jobs.finish(job, result);
      try { request.onDone?.(result, job.id); } catch (err) { this.deps.log.error('a privileged job\'s onDone threw', { verb: request.verb, err: err as Error }); }
    });
    return job.id;
  }

  /** Every check before a run; a refusal is audited and thrown. */
  private async prepare(request: PrivilegedRequest): Promise<Ready> {
    const { elevation, passwords, settings } = this.deps;
    try {
      const plan = planVerb(request.verb, request.args, settings);
      if (elevation.method === 'none') throw httpError(PrivilegeErrors.UNAVAILABLE, `host actions cannot run here: ${elevation.note}`);
      const program = await systemProgram(plan.program);
      if (!program) throw httpError(PrivilegeErrors.UNAVAILABLE, `${plan.program} is not installed (looked in the system folders)`);
      let password: Buffer | undefined;
      if (elevation.method === 'sudo' && elevation.passwordNeeded) {
        password = passwords.take(request.principal);
        if (!password) throw httpError(PrivilegeErrors.PASSWORD_REQUIRED, `sudo needs the password of ${settings.user} for this session before ${request.verb} runs`);
      }
      if (plan.lock === 'packages' && this.packagesBusy) {
        password?.fill(0);
        throw httpError(PrivilegeErrors.BUSY, 'another package change is running; package managers take one at a time');
      }
      if (plan.lock === 'packages') this.packagesBusy = true;
      try {
        await plan.precheck?.();
      } catch (err) {
        if (plan.lock === 'packages') this.packagesBusy = false;
        password?.fill(0);
        throw err;
      }
      const command = elevatedCommand(elevation, program, plan.argv, plan.env, password !== undefined);
      return { plan, command, password };
    } catch (err) {
      await this.deps.audit({
        principal: request.principal, action: `host ${String(request.verb).slice(0, 40)}`, target: request.args.join(' '),
        status: err instanceof VigilError && err.status ? err.status : 500, address: request.address ?? null, detail: `refused: ${(err as Error).message}`,
      });
      throw err;
    }
  }

  private async execute(request: PrivilegedRequest, ready: Ready): Promise<PrivilegedResult> {
    const { plan, command, password } = ready;
    const method = this.deps.elevation.method as PrivilegedResult['method'];
    let result: PrivilegedResult;
    try {
      result = await runProgram({
        ...command, stdin: password ? Buffer.concat([password, Buffer.from('\n')]) : undefined, timeoutMs: Math.min(plan.timeoutMs, request.timeoutMs ?? Infinity),
        endsAtLimit: plan.endsAtLimit, onOutput: request.onOutput, signal: request.signal, method,
      });
    } finally {
      password?.fill(0);
      if (plan.lock === 'packages') this.packagesBusy = false;
    }
    // A password changed since it was given: sudo refuses it, so it is dropped and the next run asks again.
    if (password && !result.ok && /incorrect password attempt|no password was provided/.test(result.output)) this.deps.passwords.forget(request.principal);
    const { status, detail } = outcome(result);
    await this.deps.audit({ principal: request.principal, action: `host ${request.verb}`, target: request.args.join(' '), status, address: request.address ?? null, detail });
    return result;
  }
}

// Runs the Go and Java clients' toolchains from Node tests. A missing toolchain skips the file outside CI and says
// why; in CI (CI set) it fails, since .ci/run installs golang-go and default-jdk-headless.
import { spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { test } from 'uvu';
import { tempDir } from './tmp.js';

/** True when every command runs; otherwise registers a failing test in CI, or logs the skip, and returns false. */
export function toolchainPresent(what: string, commands: string[][], install: string): boolean {
  const missing = commands.filter(([cmd, ...args]) => spawnSync(cmd, args, { stdio: 'ignore' }).status !== 0).map(([cmd]) => cmd);
  if (missing.length === 0) return true;
  if (process.env.CI) {
    test(`${what}: the toolchain is installed`, () => {
      throw new Error(`${missing.join(', ')} not found: CI must install ${install} (.ci/run's need list)`);
    });
  } else {
    console.log(`${what}: skipped, ${missing.join(', ')} not installed (apt-get install ${install}); in CI (CI set) this test runs`);
  }
  return false;
}

export interface Ran { code: number | null; stdout: string; stderr: string }

/** Runs a command to its end with optional stdin; never rejects on a non-zero exit (the caller asserts). */
export function runTool(cmd: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number }): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 180_000);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
    child.stdin.end(options.input ?? '');
  });
}

/** Like runTool, but rejects with the output when the exit code is not 0. */
export async function mustRun(cmd: string, args: string[], options: Parameters<typeof runTool>[2]): Promise<string> {
  const r = await runTool(cmd, args, options);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${r.code}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * go with a build cache and GOPATH of its own (removed by cleanup), no network and no toolchain download: the client
 * and its tests need no module but the standard library.
 */
export function goSandbox(): { env: NodeJS.ProcessEnv; cleanup(): void } {
  const dir = tempDir('vigil-go-');
  return {
    env: { GOCACHE: join(dir.path, 'cache'), GOPATH: join(dir.path, 'gopath'), GOPROXY: 'off', GOTOOLCHAIN: 'local', GOFLAGS: '', GO111MODULE: 'on' },
    cleanup: dir.cleanup,
  };
}

/** The fenced code blocks of `language` in the section of a Markdown text that starts at `heading`, in order. */
export function codeBlocks(markdown: string, heading: string, language: string): string[] {
  const start = markdown.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const next = markdown.indexOf('\n## ', start + heading.length + 1);
  const section = markdown.slice(start, next < 0 ? undefined : next);
  return [...section.matchAll(new RegExp('```' + language + '\\n([\\s\\S]*?)```', 'g'))].map((m) => m[1]);
}

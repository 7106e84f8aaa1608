import { spawn } from 'node:child_process';
import { ProviderFailure, type ChatMessage, type Provider } from './types.js';

/** Bytes of stderr kept for the message of a command that failed. */
const STDERR_BYTES = 2048;
/** After SIGTERM, how long a command has to end before SIGKILL. */
const KILL_GRACE_MS = 2000;

/**
 * A local command (`claude -p`, `llm`, `ollama run llama3`): run with an argument list (never a shell), the
 * conversation written on its stdin, its stdout streamed as the answer. Aborting ends it (SIGTERM, then SIGKILL);
 * the caller's timeouts and answer cap bound it like an HTTP provider.
 */
export function cliProvider(argv: readonly string[]): Provider {
  return {
    endpoint: argv.join(' '),
    async *stream(messages: ChatMessage[], signal: AbortSignal) {
      const child = spawn(argv[0], argv.slice(1), { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
      let stderr = '';
      child.stderr.setEncoding('utf8');
      child.stderr.on('data', (s: string) => { if (stderr.length < STDERR_BYTES) stderr += s; });
      const exited = new Promise<{ code: number | null; error?: Error }>((resolve) => {
        child.once('error', (error) => resolve({ code: null, error }));
        child.once('close', (code) => resolve({ code }));
      });
      const kill = () => {
        if (child.exitCode !== null || child.signalCode !== null) return;
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS).unref();
      };
      signal.addEventListener('abort', kill, { once: true });
      child.stdin.on('error', () => {}); // a command that exits without reading stdin closes the pipe: not a failure of ours
      child.stdin.end(transcript(messages));
      try {
        child.stdout.setEncoding('utf8');
        for await (const text of child.stdout as AsyncIterable<string>) yield text;
        const { code, error } = await exited;
        if (signal.aborted) return;
        if (error) throw new ProviderFailure((error as NodeJS.ErrnoException).code === 'ENOENT' ? `${argv[0]} is not installed (or not on PATH)` : `${argv[0]} did not start: ${error.message}`);
        if (code !== 0) throw new ProviderFailure(`${argv[0]} exited with ${code}${stderr.trim() ? `: ${stderr.trim().slice(0, 300)}` : ''}`);
      } finally {
        signal.removeEventListener('abort', kill);
        kill();
      }
    },
  };
}

/** The conversation as plain text: commands take one prompt, so the turns are labelled in order. */
export function transcript(messages: ChatMessage[]): string {
  const label = { system: 'Instructions', user: 'User', assistant: 'Assistant' } as const;
  return `${messages.map((m) => `${label[m.role]}:\n${m.content}`).join('\n\n')}\n\nAssistant:\n`;
}

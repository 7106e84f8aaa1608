// One shell: an xterm.js terminal mounted imperatively in an effect (disposed in its cleanup) and wired to its own
// websocket. Output is written as bytes and acknowledged once xterm has parsed it (flow control); the pane fits its
// box whenever the box changes size, and tells the server the new size.
import { FitAddon } from '@xterm/addon-fit';
import { Terminal } from '@xterm/xterm';
import { useEffect, useRef, useState } from 'preact/hooks';
import { installCspSafeStyles } from './csp-safe-styles.js';
import { AckCounter, describeClose, inputFrames, terminalUrl } from './terminal-connection.js';
import { themeFor } from './terminal-theme.js';

installCspSafeStyles();

export interface TerminalPaneProps {
  cwd?: string;
  /** Typed in as the shell's first line. */
  command?: string;
  /** A terminal source's session instead of a login shell. */
  source?: { name: string; target: string };
  fontSize: number;
  theme: 'light' | 'dark';
  /** Whether its tab is on screen: a hidden pane cannot measure itself, so it fits when shown. */
  visible: boolean;
  /** Take the keyboard (the pane of a newly shown tab). */
  focused: boolean;
  label: string;
  onTitle(title: string): void;
  onClose(): void;
  /** Start a new shell in this pane's place. */
  onReopen(): void;
}

const FONT = 'ui-monospace, "SF Mono", SFMono-Regular, "JetBrains Mono", Menlo, Consolas, "Liberation Mono", monospace';

export function TerminalPane({ cwd, command, source, fontSize, theme, visible, focused, label, onTitle, onClose, onReopen }: TerminalPaneProps) {
  const box = useRef<HTMLDivElement>(null);
  const term = useRef<{ terminal: Terminal; fit(): void } | undefined>(undefined);
  const [state, setState] = useState<'connecting' | 'open' | 'closed'>('connecting');
  const callbacks = useRef({ onTitle, onClose });
  callbacks.current = { onTitle, onClose };

  useEffect(() => {
    const el = box.current!;
    const terminal = new Terminal({ fontFamily: FONT, fontSize, theme: themeFor(theme), cursorBlink: true, scrollback: 5_000,
      // Colours a program picks are adjusted until they read against the background (WCAG AA).
      minimumContrastRatio: 4.5,
    });
    const fitAddon = new FitAddon();
    terminal.loadAddon(fitAddon);
    terminal.open(el);
    const fit = (): void => {
      if (el.clientWidth === 0 || el.clientHeight === 0) return;
      try { fitAddon.fit(); } catch { /* not rendered yet */ }
    };
    fit();
    term.current = { terminal, fit };

    const ws = new WebSocket(terminalUrl(window.location, { cwd, command, source, cols: terminal.cols, rows: terminal.rows }));
    ws.binaryType = 'arraybuffer';
    const acks = new AckCounter();
    ws.onopen = () => setState('open');
    ws.onmessage = (e: MessageEvent<ArrayBuffer | string>) => {
      const bytes = typeof e.data === 'string' ? new TextEncoder().encode(e.data) : new Uint8Array(e.data);
      terminal.write(bytes, () => {
        const n = acks.add(bytes.length);
        if (n > 0 && ws.readyState === WebSocket.OPEN) ws.send(`a${n}`);
      });
    };
    ws.onclose = (e) => {
      setState('closed');
      terminal.write(`\r\n\x1b[2m[${describeClose(e.code, e.reason)}]\x1b[0m\r\n`);
    };
    const send = (data: string): void => {
      if (ws.readyState !== WebSocket.OPEN) return;
      for (const frame of inputFrames(data)) ws.send(frame);
    };
    const subscriptions = [
      terminal.onData(send),
      terminal.onBinary(send),
      terminal.onResize(({ cols, rows }) => { if (ws.readyState === WebSocket.OPEN) ws.send(`r${JSON.stringify({ cols, rows })}`); }),
      terminal.onTitleChange((title) => callbacks.current.onTitle(title)),
    ];
    const observer = new ResizeObserver(() => fit());
    observer.observe(el);
    return () => {
      observer.disconnect();
      for (const s of subscriptions) s.dispose();
      ws.onclose = null;
      ws.close();
      terminal.dispose();
      term.current = undefined;
    };
    // One terminal per mount: size and theme changes are applied below, without a new shell.
  }, []);

  useEffect(() => {
    const t = term.current;
    if (!t) return;
    t.terminal.options.fontSize = fontSize;
    t.fit();
  }, [fontSize]);

  useEffect(() => {
    const t = term.current;
    if (t) t.terminal.options.theme = themeFor(theme);
  }, [theme]);

  useEffect(() => {
    const t = term.current;
    if (!t || !visible) return;
    t.fit();
    if (focused) t.terminal.focus();
  }, [visible, focused]);

  return (
    <section class={`terminal-pane terminal-pane-${state}`} aria-label={label}>
      <div class="terminal-pane-bar">
        <span class="terminal-pane-state" data-state={state}>{state === 'open' ? 'Connected' : state === 'connecting' ? 'Connecting…' : 'Closed'}</span>
        {cwd && <code class="terminal-pane-cwd" title={cwd}>{cwd}</code>}
        <span class="terminal-pane-actions">
          {state === 'closed' && <button type="button" class="button button-ghost button-small" onClick={onReopen}>Reopen<span class="sr-only"> {label}</span></button>}
          <button type="button" class="button button-ghost button-small terminal-pane-close" onClick={() => callbacks.current.onClose()}>
            Close<span class="sr-only"> {label}</span>
          </button>
        </span>
      </div>
      <div class="terminal-screen" ref={box} />
    </section>
  );
}

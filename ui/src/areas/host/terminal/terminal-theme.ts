// xterm.js themes that match the dashboard's light and dark tokens (ui/src/styles/tokens.css). xterm takes colours
// as values, not CSS variables, so they are written here once.
import type { ITheme } from '@xterm/xterm';

export const LIGHT_THEME: ITheme = {
  background: '#ffffff', foreground: '#1f2937', cursor: '#4f46e5', cursorAccent: '#ffffff',
  selectionBackground: '#c7d2fe', selectionForeground: '#101828',
  black: '#1f2937', red: '#c81e1e', green: '#12703a', yellow: '#9a5b06', blue: '#1d4ed8', magenta: '#7e22ce', cyan: '#0e7490', white: '#d1d5db',
  brightBlack: '#6b7280', brightRed: '#dc2626', brightGreen: '#15803d', brightYellow: '#a16207', brightBlue: '#2563eb', brightMagenta: '#9333ea', brightCyan: '#0891b2', brightWhite: '#f3f4f6',
};

export const DARK_THEME: ITheme = {
  background: '#0b0d12', foreground: '#e7eaf0', cursor: '#a3a4ff', cursorAccent: '#0b0d12',
  selectionBackground: '#33366b', selectionForeground: '#ffffff',
  black: '#1c2230', red: '#ff7b7b', green: '#4ade80', yellow: '#f5b942', blue: '#7aa2ff', magenta: '#c084fc', cyan: '#5eead4', white: '#d1d5db',
  brightBlack: '#6b7280', brightRed: '#fca5a5', brightGreen: '#86efac', brightYellow: '#fcd34d', brightBlue: '#a5c0ff', brightMagenta: '#d8b4fe', brightCyan: '#99f6e4', brightWhite: '#ffffff',
};

export const themeFor = (mode: 'light' | 'dark'): ITheme => (mode === 'dark' ? DARK_THEME : LIGHT_THEME);

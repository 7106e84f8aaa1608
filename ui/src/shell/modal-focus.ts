// Where focus goes when a dialog closes: back to what had it before (the browser does this too, but not when that
// was the page itself, and then focus stays on a control inside the closed dialog, where every key is "typing").

/** Call when opening; returns the function to call once closed. */
export function keepFocus(dialog: HTMLDialogElement): () => void {
  const before = document.activeElement as HTMLElement | null;
  return () => {
    if (!dialog.contains(document.activeElement) && document.activeElement !== document.body) return;
    if (before && before !== document.body && before.isConnected) before.focus({ preventScroll: true });
    else document.getElementById('main')?.focus({ preventScroll: true });
  };
}

// The body of a live list's table, kept still for a reader who has scrolled into it.
import { Component, createRef, type ComponentChildren } from 'preact';

/**
 * A table body whose rows keep their place on screen when rows arrive above them: before the update it notes the
 * first row in sight (by its data-id) and where it is, after it scrolls the window by as much as that row moved
 * (React's getSnapshotBeforeUpdate pattern). While the top of the list is in sight, new rows push it down in view, as
 * a live list should. The browser's own scroll anchoring does not reach into the table, whose wrapper scrolls
 * sideways and so is a scroller of its own; the wrapper has `overflow-anchor: none` so that it does not adjust as well.
 * `rows` is the list the body shows: a new array is what says that rows may have moved.
 */
export class AnchoredRows extends Component<{ rows: readonly unknown[]; children: ComponentChildren }> {
  private readonly body = createRef<HTMLTableSectionElement>();

  override getSnapshotBeforeUpdate(previous: { rows: readonly unknown[] }): { id: string; top: number } | null {
    const body = this.body.current;
    if (previous.rows === this.props.rows || !body || body.getBoundingClientRect().top >= 0) return null;
    for (const tr of body.rows) {
      const top = tr.getBoundingClientRect().top;
      if (top >= 0) return { id: tr.dataset.id ?? '', top };
    }
    return null;
  }

  override componentDidUpdate(_props: unknown, _state: unknown, anchor: { id: string; top: number } | null): void {
    if (!anchor || !this.body.current) return;
    const tr = [...this.body.current.rows].find((row) => row.dataset.id === anchor.id);
    if (tr) window.scrollBy(0, tr.getBoundingClientRect().top - anchor.top);
  }

  render() {
    return <tbody ref={this.body}>{this.props.children}</tbody>;
  }
}

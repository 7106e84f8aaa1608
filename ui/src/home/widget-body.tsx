// A widget's component, loaded on first use (each widget is its own chunk) and kept for the page's life; a widget
// that throws shows its error in its own tile, and the rest of the grid stays up.
import { Component, type ComponentChildren, type ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { WidgetProps } from '../areas/types.js';
import { Skeleton } from '../components/skeleton.js';
import type { OfferedDefinition } from './offered-widgets.js';

const loaded = new Map<string, ComponentType<WidgetProps>>();

class Boundary extends Component<{ children: ComponentChildren }, { error?: Error }> {
  override state: { error?: Error } = {};
  override componentDidCatch(error: Error): void {
    this.setState({ error });
  }
  render() {
    if (this.state.error) return <p class="widget-note widget-note-error">This widget failed: {this.state.error.message}. Reload the page to try again.</p>;
    return this.props.children;
  }
}

export function WidgetBody({ widget, props }: { widget: OfferedDefinition; props: WidgetProps }) {
  const [View, setView] = useState<ComponentType<WidgetProps> | undefined>(() => loaded.get(widget.id));
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (View) return;
    let live = true;
    widget.load().then(
      (m) => { loaded.set(widget.id, m.default); if (live) setView(() => m.default); },
      () => { if (live) setFailed(true); },
    );
    return () => { live = false; };
  }, [widget.id]);
  if (failed) return <p class="widget-note widget-note-error">This widget could not be loaded: the dashboard was probably updated. Reload the page.</p>;
  if (!View) return <Skeleton height={40} />;
  return <Boundary><View {...props} /></Boundary>;
}

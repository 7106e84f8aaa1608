// One tile of the home grid: the widget's title and body, and in edit mode its handles. Moving and resizing work
// with a mouse, a finger or a pen (pointer events on the handles), and from the keyboard (arrow keys on the same
// handles), so nothing depends on dragging.
import { useId } from 'preact/hooks';
import { Icon } from '../components/icon.js';
import { Link } from '../shell/router.js';
import { WidgetBody } from './widget-body.js';
import type { OfferedDefinition } from './offered-widgets.js';
import type { WidgetSize } from './layout.js';

export interface TileHandlers {
  onMoveStart(e: PointerEvent, id: string): void;
  onMoveKey(e: KeyboardEvent, id: string): void;
  onResizeStart(e: PointerEvent, id: string): void;
  onResizeKey(e: KeyboardEvent, id: string): void;
  onRemove(id: string): void;
}

export function describeSize(size: WidgetSize): string {
  const w = size.w === 'full' ? 'full width' : `${size.w} ${size.w === 1 ? 'column' : 'columns'}`;
  return `${w}, ${size.h} ${size.h === 1 ? 'row' : 'rows'}`;
}

export function WidgetTile({ widget, size, span, editing, dragging, handlers }: {
  widget: OfferedDefinition;
  size: WidgetSize;
  /** Columns it spans on the grid as wide as it is now. */
  span: number;
  editing: boolean;
  dragging: boolean;
  handlers: TileHandlers;
}) {
  const titleId = useId();
  const style = { gridColumn: `span ${span}`, gridRow: `span ${size.h}` };
  return (
    <li class={`widget-tile${dragging ? ' widget-dragging' : ''}${editing ? ' widget-editing' : ''}`} style={style}
      data-widget-id={widget.id} data-w={String(size.w)} data-h={String(size.h)}>
      <section class="widget" aria-labelledby={titleId}>
        <header class="widget-header">
          {editing && (
            <button type="button" class="widget-handle widget-move" aria-label={`Move ${widget.title}`}
              aria-describedby="home-move-help" title="Drag to move, or use the arrow keys"
              onPointerDown={(e) => handlers.onMoveStart(e, widget.id)} onKeyDown={(e) => handlers.onMoveKey(e, widget.id)}>
              <Icon name="grip" />
            </button>
          )}
          <h2 class="widget-title" id={titleId}>{widget.path && !editing ? <Link href={widget.path}>{widget.title}</Link> : widget.title}</h2>
          {editing && (
            <button type="button" class="button button-ghost button-icon widget-remove" aria-label={`Remove ${widget.title}`}
              title="Remove (the gallery has it)" onClick={() => handlers.onRemove(widget.id)}>
              <Icon name="close" />
            </button>
          )}
        </header>
        <div class="widget-body">
          <WidgetBody widget={widget} props={{ size }} />
        </div>
      </section>
      {editing && (
        <button type="button" class="widget-handle widget-resize" aria-label={`Resize ${widget.title}: ${describeSize(size)}`}
          aria-describedby="home-resize-help" title="Drag to resize, or use the arrow keys"
          onPointerDown={(e) => handlers.onResizeStart(e, widget.id)} onKeyDown={(e) => handlers.onResizeKey(e, widget.id)}>
          <Icon name="resize" />
        </button>
      )}
    </li>
  );
}

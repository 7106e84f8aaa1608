import type { AlertEventSource, AlertEventsQuery, AlertEventView } from '@vigil/plugin-sdk';

/**
 * Where `GET /api/v1/alert-events` reads: the source the alerts plugin registers through the `llm` service
 * (`provideAlertEvents`). Without one (the plugin is off) the list is empty: the shape stays.
 */
export class AlertEvents {
  private source: AlertEventSource | undefined;

  provide(source: AlertEventSource): () => void {
    this.source = source;
    return () => { if (this.source === source) this.source = undefined; };
  }

  events(project: string, query: AlertEventsQuery): Promise<AlertEventView[]> {
    return this.source ? this.source.events(project, query) : Promise.resolve([]);
  }
}

// @ts-check
// An example third-party plugin. It receives exactly the context built-in plugins receive.
import { closedObject, definePlugin, HttpError } from '@vigil/plugin-sdk';

/** @typedef {{ greeting: string, max_name_length: number }} HelloConfig */

export default definePlugin(/** @type {import('@vigil/plugin-sdk').PluginDefinition<HelloConfig>} */ ({
  name: 'hello',
  version: '1.0.0',
  configSchema: {
    type: 'object',
    properties: {
      greeting: { type: 'string', default: 'hello', description: 'The word the route greets with.' },
      max_name_length: { type: 'integer', minimum: 1, default: 64 },
    },
  },
  needs: ['http'],
  setup(ctx, config) {
    // Registered as vigil_hello_greetings_total: third-party metric names are namespaced with the plugin's name.
    const greetings = ctx.metrics.counter('greetings_total', { help: 'Greetings served, per greeted name.', labelNames: ['name'] });
    ctx.http.route({
      method: 'GET',
      path: '/api/hello',
      summary: 'Greets the caller by name',
      query: {
        type: 'object',
        properties: { name: { type: 'string', default: 'world' } },
      },
      // What it answers: required, listed in GET /api, and checked against every answer in test runs.
      response: closedObject({ message: { type: 'string' } }, { title: 'Greeting' }),
      handler(req) {
        const name = String(req.query.name);
        if (name.length > config.max_name_length) {
          throw new HttpError(400, 'HELLO_NAME_TOO_LONG', `name must be at most ${config.max_name_length} characters`);
        }
        greetings.labels(name).inc();
        return { message: `${config.greeting}, ${name}` };
      },
    });
    return {
      start() { ctx.log.info('hello plugin ready', { greeting: config.greeting }); },
    };
  },
}));

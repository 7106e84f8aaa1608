// The answers of the ui plugin's JSON routes (api-routes.ts).
import { closedObject, type JsonSchema } from '@vigil/plugin-sdk';
import { displaySettingsSchema } from './display-settings.js';

const installMethod: JsonSchema = { enum: ['git checkout', 'npm package', 'global npm package', 'npx', 'source tree'] };

export const shellSchema = closedObject({
  version: { type: 'string' },
  areas: {
    type: 'array',
    items: closedObject({
      id: { type: 'string', description: 'The area of the front end, e.g. gateway, llm.' },
      configured: { type: 'boolean', description: 'Whether a plugin the area needs is enabled.' },
    }, { title: 'ShellArea' }),
  },
  plugins: { type: 'array', items: { type: 'string' }, description: 'The enabled plugins.' },
  config_file: { type: 'string', description: 'Absolute path; absent for a runtime started from code.' },
  cli: { enum: ['vigil', 'npx vigil'], description: 'How to call the CLI where this copy is installed.' },
  settings: displaySettingsSchema,
}, { title: 'Shell', optional: ['config_file'] });

export const aboutSchema = closedObject({
  version: { type: 'string' },
  install_method: installMethod,
  data_dir: { type: 'string' },
  config_file: { type: ['string', 'null'] },
  storage: closedObject({
    backend: { enum: ['sqlite', 'postgres', 'none'] },
    location: { type: 'string', description: 'The SQLite file, or PostgreSQL\'s host:port/database; never a credential.' },
  }, { title: 'StorageInfo', optional: ['location'] }),
  started_at: { type: 'integer', description: 'Epoch ms.' },
  uptime_s: { type: 'integer', minimum: 0 },
  node: { type: 'string', description: 'The Node.js version, e.g. v22.3.0.' },
  platform: { type: 'string', description: 'OS and architecture, e.g. linux x64.' },
  control_plane: { type: 'string', description: 'The control plane\'s base URL.' },
  plugins: {
    type: 'array',
    items: closedObject({ name: { type: 'string' }, version: { type: 'string' } }, { title: 'PluginVersion' }),
  },
}, { title: 'About' });

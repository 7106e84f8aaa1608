import type { CommandDefinition } from '@vigil/plugin-sdk';
import { DOCUMENT_FLAGS } from '../openapi/document-source.js';

/** `vigil mock`, described here and loaded when it runs, so listing commands stays cheap. */
export const mockCommand: CommandDefinition = {
  name: 'mock',
  summary: 'Serve a stateful mock of an OpenAPI 3.0/3.1 document: what a POST creates, a GET returns',
  usage: 'vigil mock (--spec FILE | -config FILE) [--port 4010] [--host 127.0.0.1] [--seed N] [--items N] [--quiet] '
    + '[--max-items 1000] [--max-bytes 16mb] [--max-body 1mb] [--llm [--llm-base-url URL] [--llm-model MODEL]]',
  flags: {
    ...DOCUMENT_FLAGS,
    port: { type: 'string', summary: 'port to listen on (default 4010; 0 picks a free one)' },
    host: { type: 'string', summary: 'address to listen on (default 127.0.0.1)' },
    seed: { type: 'string', summary: 'the same seed gives the same generated data (default 1)' },
    items: { type: 'string', summary: 'generated items each collection starts with, nested ones per parent item (default 0)' },
    quiet: { type: 'boolean', summary: 'no line per request' },
    'max-items': { type: 'string', summary: 'items one stateful collection holds; past it writes answer 507 (default 1000)' },
    'max-bytes': { type: 'string', summary: 'memory all items hold together, estimated; past it writes answer 507 (default 16mb)' },
    'max-body': { type: 'string', summary: 'largest request body read; a larger one answers 413 (default 1mb)' },
    llm: { type: 'boolean', summary: 'examples written at start by an OpenAI-compatible model (key from VIGIL_MOCK_LLM_API_KEY or OPENAI_API_KEY)' },
    'llm-base-url': { type: 'string', summary: 'the endpoint for --llm (default https://api.openai.com/v1)' },
    'llm-model': { type: 'string', summary: 'the model for --llm (default gpt-4o-mini)' },
  },
  run: async (args, io) => (await import('./mock-command.js')).runMock(args, io),
};

// How a trace tree marks its span kinds: LLM calls stand out, agents apart, tools and retrievals together.
import type { TreeSpan } from '../../data/api.gen.js';

export const KIND_TONE: Record<TreeSpan['kind'], 'accent' | 'success' | 'warning' | 'neutral'> = {
  llm: 'accent', agent: 'warning', tool: 'success', retriever: 'success', chain: 'neutral', event: 'neutral', span: 'neutral',
};

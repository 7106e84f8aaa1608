/** A JSON Schema (draft 2020-12 subset accepted by Ajv). Kept loose on purpose: Ajv is the judge. */
export type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  description?: string;
  [keyword: string]: unknown;
};

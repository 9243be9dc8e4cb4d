import * as z from 'zod';
import { RULE_IDS } from '../rule-ids.js';
import { configSchema, rulesSchema } from './schema.js';

export const SCHEMA_ID = 'https://unpkg.com/eslint-plugin-tripwire/schema.json';

/** The JSON Schema shipped as `schema.json`, generated from `configSchema`. */
export function renderSchema(): string {
  const generated = z.toJSONSchema(configSchema, {
    // The input side: keys with defaults are optional, which is what a user writes.
    io: 'input',
    override: ({ zodSchema, jsonSchema }) => {
      // `propertyNames: { enum }` validates rule ids but editors only complete `properties`.
      if (zodSchema !== rulesSchema) return;
      const setting = jsonSchema.additionalProperties;
      if (setting === undefined) return;
      jsonSchema.properties = Object.fromEntries(RULE_IDS.map((id) => [id, setting]));
      jsonSchema.additionalProperties = false;
      delete jsonSchema.propertyNames;
    },
  });
  const { $schema, ...rest } = generated;
  const schema = { $schema, $id: SCHEMA_ID, title: 'tripwire configuration', ...rest };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

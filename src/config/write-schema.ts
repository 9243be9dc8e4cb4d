import { existsSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

function packageRoot(from: string): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${from}`);
    dir = parent;
  }
  return dir;
}

const entry = process.argv[1];
if (entry !== undefined && import.meta.url === pathToFileURL(realpathSync(entry)).href) {
  const file = join(packageRoot(dirname(fileURLToPath(import.meta.url))), 'schema.json');
  writeFileSync(file, renderSchema());
  console.log(`wrote ${file}`);
}

// `npm run schema`: writes the JSON Schema of the configuration to schema.json at the package root.
// A script of its own, which nothing imports: the CLI's bundle (scripts/bundle.mjs) has none of its side effect.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../version.js';
import { renderSchema } from './json-schema.js';

const file = join(PACKAGE_ROOT, 'schema.json');
writeFileSync(file, renderSchema());
console.log(`wrote ${file}`);

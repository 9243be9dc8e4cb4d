import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { UsageError } from '../../errors.js';
import { RULE_IDS } from '../../rule-ids.js';
import { closest } from '../../util/closest.js';
import { PACKAGE_ROOT } from '../../version.js';
import type { Io } from '../io.js';

/** `tripwire explain RULE`: the rule's documentation, or the section of a core check. */
export async function explainCommand(argv: string[], io: Io, help: string): Promise<number> {
  const { values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: { help: { type: 'boolean', short: 'h' } } });
  if (values.help) {
    io.stdout(help);
    return 0;
  }
  const id = positionals[0];
  if (id === undefined) throw new UsageError(`explain needs a rule id (known: ${RULE_IDS.join(', ')})`);
  const { rules } = await import('../../../rules/index.js');
  const { CORE_RULES } = await import('../../engine/index.js');
  if (id in CORE_RULES) {
    io.stdout(coreSection(readFileSync(join(PACKAGE_ROOT, 'rules', 'core-checks.md'), 'utf8'), id));
    return 0;
  }
  if (!rules.some((rule) => rule.id === id)) {
    const known = [...rules.map((r) => r.id), ...Object.keys(CORE_RULES)];
    const near = closest(id, known);
    throw new UsageError(`unknown rule '${id}'${near === undefined ? '' : ` (did you mean '${near}'?)`}; known: ${known.join(', ')}`);
  }
  io.stdout(readFileSync(join(PACKAGE_ROOT, 'rules', `${id}.md`), 'utf8'));
  return 0;
}

/** The `## id` section of the core checks' documentation, with its title line. */
function coreSection(doc: string, id: string): string {
  const start = doc.indexOf(`\n## ${id}\n`);
  if (start === -1) return doc;
  const end = doc.indexOf('\n## ', start + 1);
  return `# ${id} (a core check)\n${doc.slice(start + `\n## ${id}\n`.length, end === -1 ? undefined : end + 1)}`;
}

import type { Rule } from 'eslint';
import { ConfigError, findingsInFile, type AdapterSettings } from '../engine/lint-session.js';
import type { TripwireRule } from '../rule.js';
import type { Finding } from '../types.js';

export { resetModels } from '../engine/lint-session.js';
export type { AdapterSettings } from '../engine/lint-session.js';

/** The message id every rule reports an invalid configuration under. */
export const INVALID_CONFIG = 'invalidConfig';

/**
 * The findings of `rule` to report in the file ESLint is linting, with the
 * buffer's text overlaid on the repository, plus (on the map file) the
 * findings located in files ESLint does not lint, such as a JSON map.
 */
export function findingsForFile(rule: TripwireRule, context: Rule.RuleContext): Finding[] {
  try {
    return findingsInFile(rule, {
      cwd: context.cwd,
      filename: context.filename,
      text: context.sourceCode.text,
      settings: tripwireSettings(context.settings),
      ...(context.options[0] !== undefined && { options: context.options[0] }),
    });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return invalidConfig(error, rule, context);
  }
}

/** The linted files (one SourceCode per lint of a file) that already carry the invalid-configuration message. */
const toldInvalid = new WeakSet<object>();

/**
 * An invalid configuration (or rule options in it, or baseline) is one
 * message per linted file, at 1:1, from the first tripwire rule that runs on
 * it, and linting goes on: an editor shows it in whichever file is open, and
 * `eslint --concurrency` workers have no shared "first file" to put it on.
 */
function invalidConfig(error: ConfigError, rule: TripwireRule, context: Rule.RuleContext): Finding[] {
  if (toldInvalid.has(context.sourceCode)) return [];
  toldInvalid.add(context.sourceCode);
  const problems = error.message.split('\n').join('; ');
  const message = `the tripwire configuration is invalid, so tripwire checked nothing: ${problems}. Fix it (\`tripwire check\` prints the same).`;
  return [{ ruleId: rule.id, messageId: INVALID_CONFIG, severity: 'error', file: context.filename, line: 1, column: 1, endLine: 1, endColumn: 1, message }];
}

function tripwireSettings(settings: Record<string, unknown> | undefined): AdapterSettings {
  const value = settings?.tripwire;
  if (typeof value !== 'object' || value === null) return {};
  const out: AdapterSettings = {};
  if ('root' in value && typeof value.root === 'string') out.root = value.root;
  if ('configFile' in value && typeof value.configFile === 'string') out.configFile = value.configFile;
  return out;
}


import type { ESLint, Linter } from 'eslint';
import { recommended } from '../presets/recommended.js';
import { strict } from '../presets/strict.js';
import { plugin } from './eslint/plugin.js';

export { rules } from '../rules/index.js';
export { RULE_IDS, type RuleId } from './rule-ids.js';
export { check, type CheckOptions } from './check.js';
export type { CheckResult, Finding, Summary } from './types.js';

const configs: { recommended: Linter.Config[]; strict: Linter.Config[] } = { recommended: [], strict: [] };

/** `import tripwire from 'eslint-plugin-tripwire'` → `tripwire.configs.recommended`. */
const tripwire = Object.assign(plugin, { configs }) satisfies ESLint.Plugin;
configs.recommended.push(...recommended(tripwire));
configs.strict.push(...strict(tripwire));

export default tripwire;

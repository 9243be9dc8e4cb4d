/**
 * `eslint-plugin-tripwire/api`: the programmatic check, for scripts and other
 * tools. It loads neither ESLint nor any of the plugin's peer dependencies.
 */
export { rules } from '../rules/index.js';
export { RULE_IDS, type RuleId } from './rule-ids.js';
export { check, type CheckOptions, type WorkspaceOptions } from './engine/index.js';
export type { CheckResult, Finding, Summary } from './types.js';

export { rules } from '../rules/index.js';
export { RULE_IDS, type RuleId } from '../rules/ids.js';
export { check, type CheckOptions } from './check.js';
export type { CheckResult, Finding, Summary } from './types.js';

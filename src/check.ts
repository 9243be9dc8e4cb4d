// The engine's entry points under their historical module name: see src/engine/.
export { UsageError } from './errors.js';
export { CORE_RULES, SUPPRESSION_WITHOUT_REASON } from './engine/core-checks.js';
export { evaluate } from './engine/evaluate.js';
export { buildModel, buildModelSync } from './engine/project.js';
export { selectRules, severityOf } from './engine/rule-set.js';
export { check, run } from './engine/run.js';
export type { BuiltModel, CheckOptions, RunResult, SelectedRule } from './engine/types.js';

// The engine's entry points, for the surfaces (CLI, ESLint adapter, API) and the tests.
export { UsageError } from '../errors.js';
export { CORE_RULES, SUPPRESSION_WITHOUT_REASON } from './core-checks.js';
export { evaluate } from './evaluate.js';
export { buildModel, buildModelSync } from './project.js';
export { selectRules, severityOf } from './rule-set.js';
export { run } from './run.js';
export { check, type WorkspaceOptions } from './workspace.js';
export type { BuiltModel, CheckOptions, RunResult, SelectedRule } from './types.js';
export type { RepoModel } from '../model/model.js';

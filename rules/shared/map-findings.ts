import type { RepoModel } from '../../src/model/model.js';
import { FILE_START } from '../../src/model/positions.js';
import type { MapRule, SelectionMessageIds, SelectionProblem } from '../../src/analysis/selection.js';
import type { MessageKind, RuleFinding } from '../../src/rule.js';
import { paidTestFiles } from '../../src/analysis/paid-list.js';

/** The kinds every map rule reports about the map it reads. */
export const MAP_MESSAGES = {
  missingMapConfig: { description: 'Paid test files exist but the map this rule reads is not configured, so nothing can be checked.' },
  missingMapFile: { description: 'The configured map file does not exist.' },
  unevaluableMap: { description: 'A part of the map cannot be evaluated statically (a call, an unresolved name, a mutable binding, a const its module mutates after the declaration, a duplicate key, a __proto__, constructor or prototype key, a YAML key that is not a scalar): the node is named.' },
} satisfies Record<string, MessageKind>;

/** The evaluation problems of the maps and ids that belong to `rule`. */
export function mapProblems<R extends MapRule>(problems: readonly SelectionProblem[], rule: R): RuleFinding<SelectionMessageIds[R]>[] {
  // SelectionProblem pairs each rule with its ids; TypeScript cannot follow that pairing through the generic `R`.
  return problems.flatMap(({ rule: owner, messageId, file, loc, message }) => (owner === rule ? [{ messageId: messageId as SelectionMessageIds[R], file, loc, message }] : []));
}

/** Paid tests exist but the map this rule reads is not configured: nothing can be checked, which is a finding, not a pass. `what` is a bare noun ("tier map"). */
export function missingMapFinding(model: RepoModel, key: string, what: string): RuleFinding<'missingMapConfig'>[] {
  const paid = paidTestFiles(model);
  if (paid.length === 0) return [];
  return [
    {
      messageId: 'missingMapConfig',
      file: model.configFile ?? 'tripwire.config.json',
      loc: FILE_START,
      message: `${paid.length} paid test file${paid.length === 1 ? '' : 's'} but no ${what} is configured (${key}): configure it, or turn this rule off`,
    },
  ];
}

import type { RepoModel } from '../../src/model/model.js';
import { FILE_START } from '../../src/model/positions.js';
import type { SelectionProblem, SelectionProblemKinds, SelectionSource } from '../../src/analysis/selection.js';
import type { MessageKind, RuleFinding } from '../../src/rule.js';
import { paidTestFiles } from '../../src/analysis/paid-list.js';

/** The kinds every map rule reports about the map it reads. */
export const MAP_MESSAGES = {
  missingMapConfig: { description: 'Paid test files exist but the map this rule reads is not configured, so nothing can be checked.' },
  missingMapFile: { description: 'The configured map file does not exist.' },
  unevaluableMap: { description: 'A part of the map cannot be evaluated statically (a call, an unresolved name, a mutable binding, a const its module mutates after the declaration, a duplicate key, a __proto__, constructor or prototype key, a YAML key that is not a scalar): the node is named.' },
} satisfies Record<string, MessageKind>;

/** A rule's message id for every kind of problem one source (a map, or the paid tests' ids) can have. */
export type ProblemIds<S extends SelectionSource, M extends string> = Record<SelectionProblemKinds[S], M>;

/** The problems of reading `source`, as the findings of the rule that owns it: `ids` names its message id per kind. */
export function mapProblems<S extends SelectionSource, M extends string>(problems: readonly SelectionProblem[], source: S, ids: ProblemIds<S, M>): RuleFinding<M>[] {
  return problems.flatMap((problem) => {
    if (problem.source !== source) return [];
    // SelectionProblem pairs each source with its kinds; TypeScript cannot follow that pairing through the generic `S`.
    const messageId = ids[problem.kind as SelectionProblemKinds[S]];
    return [{ messageId, file: problem.file, loc: problem.loc, message: problem.message }];
  });
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

import * as z from 'zod';
import { shippedFiles } from '../src/model/seams.js';
import { createRule, type RuleFinding } from '../src/rule.js';
import { baseFindings } from './no-dangling-references-utils/base.js';
import { deadConfigGlobs } from './no-dangling-references-utils/config-globs.js';
import { missingReferences } from './no-dangling-references-utils/references.js';
import { removedTokenFindings } from './no-dangling-references-utils/removed.js';
import { leftoverSeamFindings } from './no-dangling-references-utils/seams.js';

export default createRule({
  id: 'no-dangling-references',
  meta: {
    description: 'Nothing names a mechanism that is gone: a path or anchor that does not exist, a token of a removed mechanism, a test seam left behind, or what the diff removed.',
    languages: ['js/js', 'markdown/commonmark', 'markdown/gfm', 'json/json'],
    recommended: true,
  },
  options: z.strictObject({
    seams: z.boolean().default(true).describe('Report env vars that a fixture stub reads but nothing sets any more, and the reverse.'),
  }),
  check(model, options) {
    const findings = new Map<string, RuleFinding>();
    const add = (list: readonly RuleFinding[]): void => {
      for (const finding of list) {
        const key = `${finding.file}:${finding.loc.line}:${finding.loc.column}`;
        if (!findings.has(key)) findings.set(key, finding);
      }
    };
    // What the diff removed says more than "does not exist" about the same reference, so it goes first.
    add(baseFindings(model));
    for (const file of shippedFiles(model)) {
      add(missingReferences(model, file));
    }
    add(removedTokenFindings(model));
    if (options.seams) add(leftoverSeamFindings(model));
    add(deadConfigGlobs(model));
    return [...findings.values()];
  },
});


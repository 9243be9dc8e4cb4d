import { describe, expect, it } from 'vitest';
import { buildModel } from '../../../src/engine/index.js';
import { leftoverSeamFindings } from '../../../rules/no-dangling-references-utils/seams.js';
import { makeGitRepo } from '../../support/repo.js';

describe('leftoverSeamFindings', () => {
  it("reports a test that sets a variable of the stubs' family that nothing reads, and not a set in a test's Markdown or in a file outside the tests", async () => {
    const { model } = await buildModel({
      cwd: makeGitRepo({
        'tripwire.config.json': JSON.stringify({ tests: { include: ['tests/**/*.test.ts'] }, shipped: { include: ['skills/**/*.md'] } }),
        'skills/review/SKILL.md': '# Review\n',
        'tests/review/fixtures/bin/gh': '#!/bin/sh\necho "$CMR_FIXTURE"\n',
        'tests/review/cases/merge.test.ts': "process.env.CMR_FIXTURE = 'x';\nprocess.env.CMR_GONE = '1';\n",
        'tests/review/README.md': '# Cases\n\n```sh\nCMR_DOC=1 ./run\n```\n',
        'scripts/run.sh': '#!/bin/sh\nCMR_TRACE=1 vitest run\n',
      }),
      cache: false,
    });
    expect(leftoverSeamFindings(model).map((f) => `${f.messageId} ${f.file}:${f.loc.line}:${f.loc.column}`)).toEqual(['staleSeamSet tests/review/cases/merge.test.ts:2:1']);
  });
});

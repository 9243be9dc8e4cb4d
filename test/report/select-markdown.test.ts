import { describe, expect, it } from 'vitest';
import { selectMarkdown } from '../../src/report/select-markdown.js';

describe('selectMarkdown', () => {
  it('escapes ids, files and globs a pull request chose, keeping one row per id', () => {
    const output = selectMarkdown(
      {
        base: '0123456789abcdef0123456789abcdef01234567',
        changed: ['src/a|b`<img src=x>.ts'],
        selected: [{ id: 'id|`<i>@team', tier: 'gate', reasons: [{ file: 'src/a|b`<img src=x>.ts', glob: 'src/**/*|*.ts', global: false }] }],
        total: 3,
      },
      undefined,
    );
    expect(output).toBe(
      [
        '## tripwire select: 1 of 3 paid tests selected',
        '',
        '1 changed file since the merge base 0123456789ab.',
        '',
        '| paid test id | tier | selected by (changed file and the glob it matched) |',
        '| --- | --- | --- |',
        '| id\\|\\`&lt;i&gt;&#64;team | gate | src/a\\|b\\`&lt;img src=x&gt;.ts (src/\\*\\*/\\*\\|\\*.ts) |',
        '',
      ].join('\n'),
    );
  });

  it('lists five reasons per id and counts the rest; compares the index with HEAD under --staged', () => {
    const reasons = Array.from({ length: 7 }, (_, index) => ({ file: `src/f${index}.ts`, glob: 'src/**', global: false }));
    const output = selectMarkdown({ base: null, changed: reasons.map((r) => r.file), selected: [{ id: 'review', tier: null, reasons }], total: 1 }, undefined);
    expect(output).toContain('7 changed files staged (the index against HEAD).');
    expect(output).toContain(
      '| review | no tier | src/f0.ts (src/\\*\\*)<br>src/f1.ts (src/\\*\\*)<br>src/f2.ts (src/\\*\\*)<br>src/f3.ts (src/\\*\\*)<br>src/f4.ts (src/\\*\\*)<br>… and 2 more |',
    );
  });
});

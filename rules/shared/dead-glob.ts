import type { RepoModel } from '../../src/model/model.js';
import type { Located } from '../../src/analysis/selection-types.js';
import { compileGlobs, globBase, globTooComplex, isDynamicGlob } from '../../src/util/glob.js';
import type { RuleFinding } from '../../src/rule.js';
import { nearby } from '../../src/util/closest.js';
import { renameFix } from './renames.js';

/** A glob that matches no file (and no generated path) selects nothing: a rename left it behind. */
export function deadGlob(model: RepoModel, glob: Located<string>, consequence = 'a change there would select nothing'): RuleFinding<'deadGlob'> | null {
  // A glob refused as too complex is reported as that (glob-too-complex), not as one that matches nothing.
  if (globTooComplex(glob.value) !== null || model.matching([glob.value]).length > 0) return null;
  if (isGenerated(model.config.maps?.generated ?? [], glob.value)) return null;
  const hint = nearestPath(model, glob.value);
  return {
    messageId: 'deadGlob',
    file: glob.file,
    loc: glob.loc,
    message: `glob '${glob.value}' matches no file${hint ? ` (did you mean '${hint}'?)` : ''}: ${consequence}. Fix the path, or declare generated paths in maps.generated.`,
    ...(isDynamicGlob(glob.value) ? {} : renameFix(model, glob.file, glob.loc, glob.value)),
  };
}

function isGenerated(generated: readonly string[], glob: string): boolean {
  const target = isDynamicGlob(glob) ? globBase(glob) : glob;
  return generated.some((pattern) => {
    const base = globBase(pattern);
    return pattern === glob || compileGlobs([pattern])(target) || target === base || target.startsWith(`${base}/`);
  });
}

/** Each tried hint is matched against every file: a few near candidates, not all of them. */
const MAX_HINTS_TRIED = 8;

function nearestPath(model: RepoModel, glob: string): string | undefined {
  const dynamic = isDynamicGlob(glob);
  const target = dynamic ? globBase(glob) : glob;
  if (target === '') return undefined;
  const candidates = new Set<string>();
  for (const file of model.files) {
    if (!dynamic) candidates.add(file);
    const parts = file.split('/');
    for (let i = 1; i < parts.length; i++) candidates.add(parts.slice(0, i).join('/'));
  }
  // A hint is a pattern that would select something: never the glob itself (its base exists, its tail matches nothing), never another dead one.
  for (const near of nearby(target, [...candidates]).slice(0, MAX_HINTS_TRIED)) {
    const hint = dynamic ? glob.replace(target, near) : near;
    if (hint !== glob && model.matching([hint]).length > 0) return hint;
  }
  return undefined;
}

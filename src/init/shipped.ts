import { compileGlobs, isDynamicGlob } from '../util/glob.js';
import { coverFiles } from './globs.js';
import type { RepoScan } from './scan.js';

/** Path segments of test inputs: a SKILL.md or a prompt there is a fixture, not a shipped artifact. */
const TEST_SEGMENT = /^(?:tests?|__tests__|spec|fixtures?|__fixtures__|__mocks__|testdata|examples?|node_modules)$/i;
/** Files npm ships anyway and that describe the package to people; they are not the product's text. */
const PACKAGE_DOCS = /^(?:readme|changelog|changes|history|license|licence|notice|authors|contributing)(?:\.\w+)?$/i;

export interface ShippedInference {
  include: string[];
  exclude: string[];
  why: string[];
  skipped: string[];
}

/**
 * What ships: skill text (`SKILL.md`), prompt folders, and the entries of
 * package.json `files` that are in the repository. A `files` entry that is
 * built output (`dist`) is not in the repository; its sources are named
 * instead when a `src/` directory holds them.
 */
export function inferShipped(scan: RepoScan, testInclude: readonly string[]): ShippedInference {
  const include: string[] = [];
  const why: string[] = [];
  const skipped: string[] = [];
  const outsideTests = (file: string): boolean => !file.split('/').slice(0, -1).some((segment) => TEST_SEGMENT.test(segment));

  const skills = scan.files.filter((file) => /(?:^|\/)SKILL\.md$/.test(file));
  const shippedSkills = skills.filter(outsideTests);
  if (shippedSkills.length > 0) {
    const globs = coverFiles(shippedSkills, skills.filter((file) => !outsideTests(file)), () => ['SKILL.md']);
    include.push(...globs);
    why.push(`${shippedSkills.length} SKILL.md ${shippedSkills.length === 1 ? 'file' : 'files'} outside the test folders`);
  }

  const promptDirs = new Set<string>();
  for (const file of scan.files) {
    const parts = file.split('/');
    const index = parts.findIndex((part, i) => i < parts.length - 1 && /^prompts?$/i.test(part));
    if (index !== -1 && outsideTests(file)) promptDirs.add(parts.slice(0, index + 1).join('/'));
  }
  for (const dir of [...promptDirs].sort()) {
    include.push(`${dir}/**`);
    why.push(`the prompt folder ${dir}/`);
  }

  const files = scan.packageJson?.files;
  if (Array.isArray(files)) {
    for (const entry of files) {
      if (typeof entry !== 'string' || entry.startsWith('!')) continue;
      const clean = entry.replace(/^\.\//, '').replace(/\/$/, '');
      const glob = isDynamicGlob(clean) ? clean : scan.isDirectory(clean) ? `${clean}/**` : clean;
      if (PACKAGE_DOCS.test(clean)) {
        skipped.push(`package.json files "${entry}": documentation about the package, not its text`);
        continue;
      }
      if (include.includes(glob) || include.some((existing) => compileGlobs([existing])(clean))) continue;
      if (scan.files.some(compileGlobs([glob]))) {
        include.push(glob);
        why.push(`package.json files "${entry}"`);
        continue;
      }
      const source = isDynamicGlob(clean) ? null : sourceOf(scan, clean);
      if (source !== null) {
        if (!include.includes(`${source}/**`)) {
          include.push(`${source}/**`);
          why.push(`package.json files "${entry}" is built output (not in the repository): its sources in ${source}/`);
        }
        continue;
      }
      skipped.push(`package.json files "${entry}": matches no file in the repository`);
    }
  }

  // Tests beside the sources (`src/x.test.ts`) ship in no package: keep them out.
  const shipped = compileGlobs(include);
  const testGlobs = testInclude.filter((glob) => !glob.startsWith('!'));
  const tests = compileGlobs(testGlobs);
  const exclude = include.length > 0 && scan.files.some((file) => shipped(file) && tests(file)) ? testGlobs : [];
  return { include: [...new Set(include)], exclude, why, skipped };
}

/** The sources of a built `files` entry: `dist/rules` → `rules`, `dist` → `src`; null when there are none. */
function sourceOf(scan: RepoScan, built: string): string | null {
  const match = /^(?:dist|build|out|lib)(?:\/(.+))?$/.exec(built);
  if (!match) return null;
  const rest = match[1];
  if (rest !== undefined) return scan.isDirectory(rest) ? rest : null;
  return scan.isDirectory('src') ? 'src' : null;
}

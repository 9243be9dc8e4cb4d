import { describe, expect, it } from 'vitest';
import { readVitestConfig, vitestConfigFiles, vitestModes } from '../../src/init/vitest-config.js';

const MODE_CHAIN = `
import { defineConfig } from 'vitest/config';

const common = {
  test: {
    environment: 'node',
    exclude: ['**/node_modules/**', '**/*.int.test.ts'],
  },
};

export default defineConfig((env) => {
  if (env.mode === 'int') {
    return { test: { ...common.test, include: ['**/*.int.test.ts'], exclude: ['**/node_modules/**'] } };
  } else if (env.mode === 'browser') {
    return { test: { ...common.test, include: ['src/**/*.browser.test.ts'], dir: 'src' } };
  }
  return { test: { ...common.test, include: ['src/**/*.test.ts'] } };
});
`;

describe('readVitestConfig: where the config is', () => {
  it('reads a plain exported object', () => {
    const text = `export default { test: { include: ['spec/**/*.spec.ts'], exclude: ['spec/fixtures/**'] } };`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toEqual({
      include: ['spec/**/*.spec.ts'],
      exclude: ['spec/fixtures/**'],
      excludeDefaults: false,
      dir: null,
      name: null,
      typecheck: false,
      typecheckInclude: null,
      projects: 'none',
      inlineProjects: [],
      evaluable: true,
    });
  });

  it('reads defaultConfig with an arrow returning an object, through `satisfies`', () => {
    const text = `import { defineConfig } from 'vitest/config';
export default defineConfig(() => ({ test: { include: ['tests/unit/**/*.ts'] } }) satisfies object);`;
    const selection = readVitestConfig('vitest.config.mts', text, null);
    expect(selection.include).toEqual(['tests/unit/**/*.ts']);
    expect(selection.exclude).toBeNull();
    expect(selection.excludeDefaults).toBe(true);
    expect(selection.evaluable).toBe(true);
  });

  it('reads module.exports, and a config without a test block as all defaults', () => {
    const withTest = `module.exports = { test: { include: ['lib/**/*.test.cjs'] } };`;
    expect(readVitestConfig('vitest.config.cjs', withTest, null).include).toEqual(['lib/**/*.test.cjs']);
    const withoutTest = `export default { plugins: [] };`;
    const selection = readVitestConfig('vite.config.ts', withoutTest, null);
    expect([selection.include, selection.exclude, selection.evaluable]).toEqual([null, null, true]);
  });

  it('reads a shorthand test property bound to a const', () => {
    const text = `const test = { include: ['short/**/*.test.ts'] };
export default defineConfig({ test });`;
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['short/**/*.test.ts']);
  });

  it('is not evaluable without a default export', () => {
    expect(readVitestConfig('vitest.config.ts', `const config = { test: { include: ['a/**'] } };`, null)).toMatchObject({ include: null, evaluable: false });
  });

  it('reads an exported const bound to defineConfig', () => {
    const text = `const config = defineConfig({ test: { include: ['a/**/*.test.ts'] } });
export default config;`;
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['a/**/*.test.ts']);
  });

  it('merges mergeConfig arguments as vite does: arrays concatenate, later keys win', () => {
    const text = `import { defineConfig, mergeConfig } from 'vitest/config';
const shared = defineConfig({ test: { include: ['shared/**/*.test.ts'], dir: 'shared' } });
export default mergeConfig(shared, defineConfig({ test: { include: ['extra/**/*.test.ts'], dir: 'packages' } }));`;
    const selection = readVitestConfig('vitest.config.ts', text, null);
    expect(selection.include).toEqual(['shared/**/*.test.ts', 'extra/**/*.test.ts']);
    expect(selection.dir).toBe('packages');
  });

  it('ignores an imported first mergeConfig argument and reads the second', () => {
    const text = `import viteConfig from './vite.config';
export default mergeConfig(viteConfig, defineConfig({ test: { include: ['web/**/*.test.tsx'] } }));`;
    const selection = readVitestConfig('vitest.config.ts', text, null);
    expect([selection.include, selection.evaluable]).toEqual([['web/**/*.test.tsx'], true]);
  });

  it('returns an unevaluable selection for a syntax error, without throwing', () => {
    const selection = readVitestConfig('vitest.config.ts', `export default { test: { include: ['a' }`, null);
    expect(selection.evaluable).toBe(false);
    expect(selection.include).toBeNull();
  });

  it('is not evaluable when the export is not readable', () => {
    expect(readVitestConfig('vitest.config.ts', `export default makeConfig();`, null).evaluable).toBe(false);
  });
});

describe('readVitestConfig: modes', () => {
  it('takes the fall-through path with no mode, resolving the spread exclude', () => {
    const selection = readVitestConfig('vitest.config.ts', MODE_CHAIN, null);
    expect(selection.include).toEqual(['src/**/*.test.ts']);
    expect(selection.exclude).toEqual(['**/node_modules/**', '**/*.int.test.ts']);
    expect(selection.excludeDefaults).toBe(false);
    expect(selection.dir).toBeNull();
  });

  it('treats mode "test" as no mode', () => {
    expect(readVitestConfig('vitest.config.ts', MODE_CHAIN, 'test')).toEqual(readVitestConfig('vitest.config.ts', MODE_CHAIN, null));
  });

  it('takes the `if` branch of the given mode; later keys override the spread', () => {
    const selection = readVitestConfig('vitest.config.ts', MODE_CHAIN, 'int');
    expect(selection.include).toEqual(['**/*.int.test.ts']);
    expect(selection.exclude).toEqual(['**/node_modules/**']);
  });

  it('takes an `else if` branch', () => {
    const selection = readVitestConfig('vitest.config.ts', MODE_CHAIN, 'browser');
    expect(selection.include).toEqual(['src/**/*.browser.test.ts']);
    expect(selection.exclude).toEqual(['**/node_modules/**', '**/*.int.test.ts']);
    expect(selection.dir).toBe('src');
  });

  it('lists the modes the config branches on', () => {
    expect(vitestModes('vitest.config.ts', MODE_CHAIN)).toEqual(['int', 'browser']);
  });

  it('reads a ternary on a destructured, renamed mode', () => {
    const text = `export default defineConfig(({ mode: m }) => ({
  test: m === 'e2e' ? { include: ['e2e/**/*.e2e.ts'] } : { include: ['src/**/*.test.ts'] },
}));`;
    expect(readVitestConfig('vitest.config.ts', text, 'e2e').include).toEqual(['e2e/**/*.e2e.ts']);
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['src/**/*.test.ts']);
    expect(vitestModes('vitest.config.ts', text)).toEqual(['e2e']);
  });

  it('reads `!==` and `!`', () => {
    const text = `export default defineConfig(({ mode }) => {
  if (mode !== 'slow' && !(mode === 'flaky')) return { test: { include: ['fast/**/*.test.ts'] } };
  return { test: { include: ['slow/**/*.test.ts'] } };
});`;
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['fast/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, 'slow').include).toEqual(['slow/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, 'flaky').include).toEqual(['slow/**/*.test.ts']);
  });

  it('reads `||` as a value: an empty string falls back', () => {
    const text = `export default defineConfig(({ mode }) => ({ test: { name: (mode === 'test' ? '' : mode) || 'default' } }));`;
    expect(readVitestConfig('vitest.config.ts', text, null).name).toBe('default');
    expect(readVitestConfig('vitest.config.ts', text, 'ci').name).toBe('ci');
  });

  it('takes a switch default written before the cases only when no case matches', () => {
    const text = `export default defineConfig((env) => {
  switch (env.mode) {
    default:
      return { test: { include: ['default/**/*.test.ts'] } };
    case 'docs':
      return { test: { include: ['docs/**/*.test.ts'] } };
  }
});`;
    expect(readVitestConfig('vitest.config.ts', text, 'docs').include).toEqual(['docs/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['default/**/*.test.ts']);
    expect(vitestModes('vitest.config.ts', text)).toEqual(['docs']);
  });

  it('takes the else path when a condition has an operand it cannot read, even negated', () => {
    const text = `export default defineConfig(({ mode }) => {
  if (mode !== process.env.SPECIAL_MODE) return { test: { include: ['special/**/*.test.ts'] } };
  if (process.env.ONLY_UNIT && mode === 'test') return { test: { include: ['unit/**/*.test.ts'] } };
  return { test: { include: ['all/**/*.test.ts'] } };
});`;
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['all/**/*.test.ts']);
  });

  it('reads a missing key of a const object as undefined', () => {
    const text = `const flags = { coverage: true };
export default { test: { include: flags.e2e ? ['e2e/**/*.ts'] : ['unit/**/*.ts'] } };`;
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['unit/**/*.ts']);
  });

  it('reads a switch, with fall-through between cases and a default', () => {
    const text = `import { defineConfig } from 'vitest/config';
const base = { environment: 'node' };
export default defineConfig(function ({ mode }) {
  switch (mode) {
    case 'db':
    case 'database':
      return { test: { ...base, include: ['db/**/*.test.ts'] } };
    case 'smoke':
      break;
    case 'ui': {
      const uiInclude = ['ui/**/*.test.tsx'];
      return { test: { ...base, include: uiInclude } };
    }
  }
  return { test: { ...base, include: ['unit/**/*.test.ts'] } };
});`;
    expect(readVitestConfig('vitest.config.ts', text, 'db').include).toEqual(['db/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, 'database').include).toEqual(['db/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, 'ui').include).toEqual(['ui/**/*.test.tsx']);
    expect(readVitestConfig('vitest.config.ts', text, 'smoke').include).toEqual(['unit/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['unit/**/*.test.ts']);
    expect(vitestModes('vitest.config.ts', text)).toEqual(['db', 'database', 'smoke', 'ui']);
  });

  it('reads `||` and `&&` between mode comparisons', () => {
    const text = `export default defineConfig(({ mode }) => {
  if (mode === 'ci' || mode === 'nightly') return { test: { include: ['all/**/*.test.ts'] } };
  if (mode !== 'test' && mode !== 'ci') return { test: { include: ['other/**/*.test.ts'] } };
  return { test: { include: ['unit/**/*.test.ts'] } };
});`;
    expect(readVitestConfig('vitest.config.ts', text, 'nightly').include).toEqual(['all/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, 'ci').include).toEqual(['all/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, 'dev').include).toEqual(['other/**/*.test.ts']);
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['unit/**/*.test.ts']);
  });

  it('calls a function declaration passed by name, with `env.mode` and a body const', () => {
    const text = `function config(env: { mode: string }) {
  const integration = { include: ['it/**/*.it.ts'] };
  return env.mode === 'it' ? { test: integration } : { test: { include: ['ut/**/*.ut.ts'] } };
}
export default defineConfig(config);`;
    expect(readVitestConfig('vitest.config.ts', text, 'it').include).toEqual(['it/**/*.it.ts']);
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['ut/**/*.ut.ts']);
    expect(vitestModes('vitest.config.ts', text)).toEqual(['it']);
  });

  it('takes the else path of a condition that is not about the mode', () => {
    const text = `export default defineConfig(() => ({ test: { include: process.env.CI ? ['ci/**/*.test.ts'] : ['local/**/*.test.ts'] } }));`;
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['local/**/*.test.ts']);
    expect(vitestModes('vitest.config.ts', text)).toEqual([]);
  });
});

describe('readVitestConfig: values', () => {
  it('maps configDefaults.include and defaultInclude to the default include', () => {
    const viaObject = `import { configDefaults } from 'vitest/config';
export default { test: { include: configDefaults.include, exclude: ['vendor/**'] } };`;
    const selection = readVitestConfig('vitest.config.ts', viaObject, null);
    expect([selection.include, selection.exclude, selection.evaluable]).toEqual([null, ['vendor/**'], true]);
    const viaName = `import { defaultInclude } from 'vitest/config';
export default { test: { include: defaultInclude } };`;
    expect(readVitestConfig('vitest.config.ts', viaName, null)).toMatchObject({ include: null, evaluable: true });
  });

  it('writes the default include out when an include array spreads it', () => {
    const text = `export default { test: { include: [...configDefaults.include, 'checks/**/*.check.ts'] } };`;
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['**/*.{test,spec}.?(c|m)[jt]s?(x)', 'checks/**/*.check.ts']);
  });

  it('drops spread default excludes and says the defaults apply', () => {
    const text = `import { defaultExclude } from 'vitest/config';
export default { test: { exclude: [...defaultExclude, 'e2e/**'] } };`;
    const selection = readVitestConfig('vitest.config.ts', text, null);
    expect([selection.exclude, selection.excludeDefaults, selection.evaluable]).toEqual([['e2e/**'], true, true]);
  });

  it('maps configDefaults.exclude to the default exclude', () => {
    const text = `export default { test: { exclude: configDefaults.exclude } };`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toMatchObject({ exclude: null, excludeDefaults: true, evaluable: true });
  });

  it('reads a const that is not vitest\'s configDefaults under that name as written', () => {
    const text = `const configDefaults = { include: ['mine/**/*.test.ts'] };
export default { test: { include: configDefaults.include } };`;
    expect(readVitestConfig('vitest.config.ts', text, null).include).toEqual(['mine/**/*.test.ts']);
  });

  it('is not evaluable when the test block itself is imported', () => {
    const text = `import { testOptions } from './shared';
export default { test: testOptions };`;
    expect(readVitestConfig('vitest.config.ts', text, null).evaluable).toBe(false);
  });

  it('survives a const that refers to itself', () => {
    const text = `const loop = { ...loop, test: { include: loop.extra } };
export default loop;`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toMatchObject({ include: null, evaluable: false });
  });

  it('marks a non-literal include not evaluable', () => {
    const text = `export default { test: { include: globsFor('unit') } };`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toMatchObject({ include: null, evaluable: false });
  });

  it('marks a template with substitutions or a concatenation not evaluable', () => {
    expect(readVitestConfig('vitest.config.ts', 'const root = "src";\nexport default { test: { include: [`${root}/**/*.test.ts`] } };', null).evaluable).toBe(false);
    expect(readVitestConfig('vitest.config.ts', `const root = 'src';\nexport default { test: { include: [root + '/**/*.test.ts'] } };`, null).evaluable).toBe(false);
  });

  it('reads a const used twice', () => {
    const text = `const typeTests = ['types/**/*.test-d.ts'];
export default { test: { exclude: typeTests, typecheck: { include: typeTests } } };`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toMatchObject({ exclude: ['types/**/*.test-d.ts'], typecheckInclude: ['types/**/*.test-d.ts'] });
  });

  it('marks an array with a non-literal element not evaluable', () => {
    const text = `const extra = process.env.EXTRA;
export default { test: { exclude: ['a/**', extra] } };`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toMatchObject({ exclude: null, evaluable: false });
  });

  it('keeps the written keys beside an unreadable spread', () => {
    const text = `import shared from './shared';
export default { test: { ...shared.test, include: ['own/**/*.test.ts'] } };`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toMatchObject({ include: ['own/**/*.test.ts'], evaluable: true });
  });

  it('reads test.dir, and test.root when dir is absent', () => {
    expect(readVitestConfig('vitest.config.ts', `export default { test: { dir: './tests', root: 'ignored' } };`, null).dir).toBe('./tests');
    expect(readVitestConfig('vitest.config.ts', `export default { test: { root: 'packages/core' } };`, null).dir).toBe('packages/core');
  });

  it('marks a non-literal dir not evaluable, but not a non-literal root', () => {
    expect(readVitestConfig('vitest.config.ts', `export default { test: { dir: resolve('tests') } };`, null)).toMatchObject({ dir: null, evaluable: false });
    expect(readVitestConfig('vitest.config.ts', `export default { test: { root: __dirname } };`, null)).toMatchObject({ dir: null, evaluable: true });
  });

  it('reads a typecheck it cannot evaluate as unknown', () => {
    expect(readVitestConfig('vitest.config.ts', `export default { test: { typecheck: process.env.TYPECHECK } };`, null).typecheck).toBeNull();
  });

  it('reads typecheck: a non-literal enabled is on somewhere', () => {
    const text = `export default { test: { typecheck: { enabled: !process.env.CI, include: ['types/**/*.test-d.ts'] } } };`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toMatchObject({ typecheck: true, typecheckInclude: ['types/**/*.test-d.ts'] });
  });

  it('reads typecheck: enabled false is off, include alone is on, true is on', () => {
    expect(readVitestConfig('vitest.config.ts', `export default { test: { typecheck: { enabled: false, include: ['t/**'] } } };`, null).typecheck).toBe(false);
    expect(readVitestConfig('vitest.config.ts', `export default { test: { typecheck: { include: ['t/**'] } } };`, null).typecheck).toBe(true);
    expect(readVitestConfig('vitest.config.ts', `export default { test: { typecheck: true } };`, null).typecheck).toBe(true);
  });
});

describe('readVitestConfig: projects', () => {
  it('reads literal project globs, and test.workspace as well', () => {
    const projects = `export default defineConfig({ test: { projects: ['packages/*', 'apps/web/vitest.config.ts'] } });`;
    expect(readVitestConfig('vitest.config.ts', projects, null)).toMatchObject({ projects: ['packages/*', 'apps/web/vitest.config.ts'], inlineProjects: [] });
    const workspace = `export default defineConfig({ test: { workspace: ['libs/*'] } });`;
    expect(readVitestConfig('vitest.config.ts', workspace, null).projects).toEqual(['libs/*']);
  });

  it('calls computed projects dynamic', () => {
    const text = `import { readdirSync } from 'node:fs';
export default defineConfig({ test: { projects: readdirSync('packages').map((name) => \`packages/\${name}\`) } });`;
    expect(readVitestConfig('vitest.config.ts', text, null)).toMatchObject({ projects: 'dynamic', inlineProjects: [] });
  });

  it('reads inline project objects the same way', () => {
    const text = `export default defineConfig({
  test: {
    projects: [
      { test: { name: 'unit', include: ['src/**/*.test.ts'], exclude: ['src/legacy/**'] } },
      defineProject({ test: { name: 'node', include: ['server/**/*.test.ts'] } }),
    ],
  },
});`;
    const selection = readVitestConfig('vitest.config.ts', text, null);
    expect(selection.projects).toEqual([]);
    expect(selection.inlineProjects.map((project) => [project.name, project.include, project.exclude])).toEqual([
      ['unit', ['src/**/*.test.ts'], ['src/legacy/**']],
      ['node', ['server/**/*.test.ts'], null],
    ]);
  });

  it('reads a workspace file that exports an array', () => {
    const text = `export default defineWorkspace(['packages/*', { test: { name: 'root', include: ['scripts/**/*.test.ts'] } }]);`;
    const selection = readVitestConfig('vitest.workspace.ts', text, null);
    expect(selection.projects).toEqual(['packages/*']);
    expect(selection.inlineProjects.map((project) => project.include)).toEqual([['scripts/**/*.test.ts']]);
  });
});

describe('vitestConfigFiles', () => {
  it('lists vitest configs, vite configs with a test key, and project lists at the top level only', () => {
    const texts: Record<string, string> = {
      'vite.config.ts': `export default { test: { include: ['x'] } };`,
      'vite.config.mjs': `export default { plugins: [] };`,
    };
    const files = ['vitest.config.mts', 'vitest.integration.config.ts', 'vitest.node.config.js', 'vite.config.ts', 'vite.config.mjs', 'vitest.workspace.json', 'vitest.projects.ts', 'packages/a/vitest.config.ts', 'vitest.setup.ts', 'vitest.config.d.ts'];
    expect(vitestConfigFiles(files, (file) => texts[file] ?? null)).toEqual(['vitest.config.mts', 'vitest.integration.config.ts', 'vitest.node.config.js', 'vite.config.ts', 'vitest.workspace.json', 'vitest.projects.ts']);
  });

  it('does not take a `test` word in a vite config comment for a test key', () => {
    expect(vitestConfigFiles(['vite.config.js'], () => `// test: later\nexport default {};`)).toEqual([]);
  });
});

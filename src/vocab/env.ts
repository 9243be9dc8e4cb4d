// Environment variables that belong to the platform, the shell, CI or a test
// runner rather than to the product: never a seam a harness defined.

/** Env vars a test runner sets: reading one in shipped code is test-runner detection. */
export const RUNNER_ENV: ReadonlySet<string> = new Set([
  'VITEST',
  'VITEST_WORKER_ID',
  'VITEST_POOL_ID',
  'VITEST_MODE',
  'JEST_WORKER_ID',
  'BUN_TEST',
  'NODE_TEST_CONTEXT',
  'MOCHA_WORKER_ID',
  'AVA_PATH',
  'PYTEST_CURRENT_TEST',
  'PLAYWRIGHT_TEST_BASE_URL',
]);

/** Variables of the platform, the shell and CI: a test that sets one is not defining a seam. */
const AMBIENT_ENV = new Set([
  'PATH', 'HOME', 'USER', 'LOGNAME', 'SHELL', 'PWD', 'OLDPWD', 'TMPDIR', 'TMP', 'TEMP', 'LANG', 'LANGUAGE', 'TERM', 'TZ', 'CI',
  'NODE_ENV', 'NODE_OPTIONS', 'NODE_PATH', 'NO_COLOR', 'FORCE_COLOR', 'COLORTERM', 'EDITOR', 'VISUAL', 'PAGER', 'HOSTNAME', 'DEBUG',
  'DISPLAY', 'SSH_AUTH_SOCK', 'HTTP_PROXY', 'HTTPS_PROXY', 'NO_PROXY', 'http_proxy', 'https_proxy', 'no_proxy', 'PYTHONPATH', 'VIRTUAL_ENV',
  'MAIL', 'UID', 'EUID', 'PPID', 'SHLVL', 'IFS', 'PS1', 'PS2', 'PS4', 'RANDOM', 'SECONDS', 'LINENO', 'FUNCNAME', 'PIPESTATUS', 'REPLY',
  'OPTARG', 'OPTIND', 'OSTYPE', 'HOSTTYPE', 'MACHTYPE', 'COLUMNS', 'LINES', 'TERM_PROGRAM', 'SUDO_USER', 'SUDO_UID', 'EPOCHSECONDS',
  'APPDATA', 'LOCALAPPDATA', 'USERPROFILE', 'USERNAME', 'PROGRAMFILES', 'SYSTEMROOT', 'COMSPEC', 'WINDIR', 'PATHEXT', 'OS',
]);
const AMBIENT_PREFIXES = ['LC_', 'XDG_', 'GITHUB_', 'RUNNER_', 'GIT_', 'npm_', 'NPM_', 'CI_', 'BUILDKITE_', 'CIRCLE_', 'GITLAB_', 'TRAVIS_', 'BASH', 'ZSH_'];

/** A variable of the platform, the shell or CI: never a seam anyone defined. */
export function isAmbientEnv(name: string): boolean {
  return AMBIENT_ENV.has(name) || AMBIENT_PREFIXES.some((prefix) => name.startsWith(prefix));
}

import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { forbiddenJsonKeys, forbiddenKeyMessage, formatKeyPath } from '../util/json-keys.js';
import { ConfigError, issuesFromZod } from './errors.js';
import { findRoot } from './root.js';
import { CONFIG_FILE_NAMES, PACKAGE_JSON_KEY, configSchema, type Config } from './schema.js';
import { formatBytes, MAX_INPUT_BYTES, readBounded } from '../repo/read.js';
import { isRecord } from '../util/guards.js';
import { toPosix } from '../util/path.js';

export interface LoadConfigOptions {
  cwd: string;
  /** `--config FILE`, relative to `cwd`; it must exist. */
  configFile?: string;
  /**
   * Search from `cwd` upwards for the root (findRoot), the default; false
   * looks in `cwd` alone (ESLint's `settings.tripwire.root`).
   */
  search?: boolean;
  /** Outside a git work tree, how far up the search goes (default: `cwd` alone); see findRoot. */
  ceiling?: string;
  /** The directory whose configuration to load, without a search (a workspace package's); files are named relative to `cwd` in messages. */
  at?: string;
}

export interface LoadedConfig {
  config: Config;
  /** Absolute path; null when no configuration was found and the defaults apply. */
  file: string | null;
  /** Absolute directory of the config file, else the git top level (or `cwd` outside git); paths in the config are relative to it. */
  root: string;
  /** SHA-256 hex of the normalized configuration, for cache keys. */
  hash: string;
}

interface Source {
  file: string;
  shownAs: string;
  data: unknown;
  /** Where the configuration sits inside the file: `["tripwire"]` in package.json. */
  keyPath: readonly string[];
}

/**
 * Finds, parses and validates the configuration: `configFile` if given, else the first of
 * CONFIG_FILE_NAMES in the root (findRoot: the nearest directory at or above `cwd` that configures
 * tripwire, no higher than the git top level), else the `"tripwire"` key of its package.json, else
 * the defaults. Throws ConfigError.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  return loadConfigSync(options);
}

/** The same, synchronously: ESLint rules cannot wait. */
export function loadConfigSync({ cwd, configFile, search = true, ceiling, at }: LoadConfigOptions): LoadedConfig {
  const dir = resolve(cwd);
  if (configFile !== undefined) {
    const source = explicitSource(dir, resolve(dir, configFile));
    return finish(validate(source.data, source), source.file, dirname(source.file));
  }
  const root = at !== undefined ? resolve(dir, at) : search ? findRoot(dir, ceiling ?? dir) : dir;
  const source = findSource(root, dir);
  if (source === undefined) return finish(validate({}, undefined), null, root);
  return finish(validate(source.data, source), source.file, dirname(source.file));
}

/** The configuration in `root`, named in messages relative to `cwd`. */
function findSource(root: string, cwd: string): Source | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const file = resolve(root, name);
    const text = readText(file, cwd);
    if (text !== undefined) return { file, shownAs: shownAs(file, cwd), data: parseJsonc(text, file, cwd, []), keyPath: [] };
  }
  const file = resolve(root, 'package.json');
  const text = readText(file, cwd);
  if (text === undefined) return undefined;
  const manifest = parseJsonc(text, file, cwd, [PACKAGE_JSON_KEY]);
  if (!isRecord(manifest) || !Object.hasOwn(manifest, PACKAGE_JSON_KEY)) return undefined;
  return { file, shownAs: shownAs(file, cwd), data: manifest[PACKAGE_JSON_KEY], keyPath: [PACKAGE_JSON_KEY] };
}

function explicitSource(cwd: string, file: string): Source {
  const text = readText(file, cwd);
  if (text === undefined) throw new ConfigError(file, [{ path: '', message: 'file not found' }], shownAs(file, cwd));
  const isManifest = basename(file) === 'package.json';
  const data = parseJsonc(text, file, cwd, isManifest ? [PACKAGE_JSON_KEY] : []);
  if (!isManifest) return { file, shownAs: shownAs(file, cwd), data, keyPath: [] };
  if (!isRecord(data) || !Object.hasOwn(data, PACKAGE_JSON_KEY)) {
    throw new ConfigError(file, [{ path: '', message: `no "${PACKAGE_JSON_KEY}" key` }], shownAs(file, cwd));
  }
  return { file, shownAs: shownAs(file, cwd), data: data[PACKAGE_JSON_KEY], keyPath: [PACKAGE_JSON_KEY] };
}

/** The file's text, or undefined when it does not exist; never a device or a pipe, never more than MAX_INPUT_BYTES. */
function readText(file: string, cwd: string): string | undefined {
  const read = readBounded(file, MAX_INPUT_BYTES);
  if (read.ok) return read.bytes.toString('utf8');
  if (!read.tooLarge && read.reason === 'ENOENT') return undefined;
  const reason = read.tooLarge ? `larger than ${formatBytes(MAX_INPUT_BYTES)}` : read.reason;
  throw new ConfigError(file, [{ path: '', message: `cannot read: ${reason}` }], shownAs(file, cwd));
}

/** The parsed text; `scope` is the key path of the configuration inside the file (`["tripwire"]` in package.json). */
function parseJsonc(text: string, file: string, cwd: string, scope: readonly string[]): unknown {
  const errors: ParseError[] = [];
  let data: unknown;
  try {
    data = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    // The parser recurses once per level: a configuration nested thousands deep runs it out of stack.
    if (!(error instanceof RangeError)) throw error;
    throw new ConfigError(file, [{ path: '', message: 'nested too deeply to parse' }], shownAs(file, cwd));
  }
  if (errors.length > 0) {
    const issues = errors.map((error) => ({
      path: '',
      message: `invalid JSONC: ${words(printParseErrorCode(error.error))}`,
      ...position(text, error.offset),
    }));
    throw new ConfigError(file, issues, shownAs(file, cwd));
  }
  const forbidden = forbiddenJsonKeys(text, scope);
  if (forbidden.length > 0) {
    const issues = forbidden.map((key) => ({ path: formatKeyPath(key.path), message: `${formatKeyPath(key.path)}: ${forbiddenKeyMessage(key.key)}`, ...position(text, key.offset) }));
    throw new ConfigError(file, issues, shownAs(file, cwd));
  }
  return data;
}

function validate(data: unknown, source: Source | undefined): Config {
  const result = configSchema.safeParse(data, { reportInput: true });
  if (result.success) return result.data;
  if (source === undefined) throw new Error(`the default configuration is invalid: ${result.error.message}`);
  throw new ConfigError(source.file, issuesFromZod(result.error.issues, configSchema, source.keyPath), source.shownAs);
}

function finish(config: Config, file: string | null, root: string): LoadedConfig {
  // `$schema` only serves editors; leaving it out keeps caches valid when it is added or moved.
  const normalized = normalize({ ...config, $schema: undefined });
  const hash = createHash('sha256').update(JSON.stringify(normalized)).digest('hex');
  return { config, file, root, hash };
}

function normalize(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normalize);
  if (!isRecord(value)) return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .filter((key) => value[key] !== undefined)
      .map((key) => [key, normalize(value[key])]),
  );
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - before.lastIndexOf('\n') };
}

/** `CommaExpected` → `comma expected`. */
function words(code: string): string {
  return code.replace(/(?<=[a-z])(?=[A-Z])/g, ' ').toLowerCase();
}

function shownAs(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return toPosix(rel === '' || isAbsolute(rel) ? file : rel);
}

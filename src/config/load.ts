import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { parse, printParseErrorCode, type ParseError } from 'jsonc-parser';
import { ConfigError, issuesFromZod } from './errors.js';
import { CONFIG_FILE_NAMES, PACKAGE_JSON_KEY, configSchema, type Config } from './schema.js';
import { formatBytes, MAX_INPUT_BYTES, readBounded } from '../repo/read.js';

export interface LoadConfigOptions {
  cwd: string;
  /** `--config FILE`, relative to `cwd`; it must exist. */
  configFile?: string;
}

export interface LoadedConfig {
  config: Config;
  /** Absolute path; null when no configuration was found and the defaults apply. */
  file: string | null;
  /** Absolute directory of the config file, or `cwd`; paths in the config are relative to it. */
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
 * CONFIG_FILE_NAMES in `cwd`, else the `"tripwire"` key of `cwd`/package.json, else the defaults.
 * Parent directories are not searched. Throws ConfigError.
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  return loadConfigSync(options);
}

/** The same, synchronously: ESLint rules cannot wait. */
export function loadConfigSync({ cwd, configFile }: LoadConfigOptions): LoadedConfig {
  const dir = resolve(cwd);
  const source = configFile === undefined ? findSource(dir) : explicitSource(dir, resolve(dir, configFile));
  if (source === undefined) return finish(validate({}, undefined), null, dir);
  return finish(validate(source.data, source), source.file, dirname(source.file));
}

function findSource(cwd: string): Source | undefined {
  for (const name of CONFIG_FILE_NAMES) {
    const file = resolve(cwd, name);
    const text = readText(file, cwd);
    if (text !== undefined) return { file, shownAs: shownAs(file, cwd), data: parseJsonc(text, file, cwd), keyPath: [] };
  }
  const file = resolve(cwd, 'package.json');
  const text = readText(file, cwd);
  if (text === undefined) return undefined;
  const manifest = parseJsonc(text, file, cwd);
  if (!isRecord(manifest) || !(PACKAGE_JSON_KEY in manifest)) return undefined;
  return { file, shownAs: shownAs(file, cwd), data: manifest[PACKAGE_JSON_KEY], keyPath: [PACKAGE_JSON_KEY] };
}

function explicitSource(cwd: string, file: string): Source {
  const text = readText(file, cwd);
  if (text === undefined) throw new ConfigError(file, [{ path: '', message: 'file not found' }], shownAs(file, cwd));
  const data = parseJsonc(text, file, cwd);
  if (basename(file) !== 'package.json') return { file, shownAs: shownAs(file, cwd), data, keyPath: [] };
  if (!isRecord(data) || !(PACKAGE_JSON_KEY in data)) {
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

function parseJsonc(text: string, file: string, cwd: string): unknown {
  const errors: ParseError[] = [];
  let data: unknown;
  try {
    data = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  } catch (error) {
    // The parser recurses once per level: a configuration nested thousands deep runs it out of stack.
    if (!(error instanceof RangeError)) throw error;
    throw new ConfigError(file, [{ path: '', message: 'nested too deeply to parse' }], shownAs(file, cwd));
  }
  if (errors.length === 0) return data;
  const issues = errors.map((error) => ({
    path: '',
    message: `invalid JSONC: ${words(printParseErrorCode(error.error))}`,
    ...position(text, error.offset),
  }));
  throw new ConfigError(file, issues, shownAs(file, cwd));
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

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
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
  return (rel === '' || isAbsolute(rel) ? file : rel).split(sep).join('/');
}

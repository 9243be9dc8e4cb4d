// Runs a command as a child process and measures its wall time, CPU time and
// peak RSS. CPU time and peak RSS come from GNU time (`/usr/bin/time -f '%M %U
// %S'`: the child and the descendants it waited for; peak RSS is the largest
// single process); without it, from the probe preloaded into node processes,
// which sees the node process only. On a shared machine CPU time is the
// steadier figure: other processes stretch wall time far more than CPU time.

import { spawnSync } from 'node:child_process';
import { accessSync, constants, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROBE = fileURLToPath(new URL('./probe.cjs', import.meta.url));
const TIME = '/usr/bin/time';

function hasGnuTime() {
  try {
    accessSync(TIME, constants.X_OK);
    const version = spawnSync(TIME, ['--version'], { encoding: 'utf8' });
    return /GNU/.test(`${version.stdout ?? ''}${version.stderr ?? ''}`);
  } catch {
    return false;
  }
}

export const RSS_SOURCE = hasGnuTime() ? 'GNU time %M %U %S (child and waited-for descendants)' : 'process.resourceUsage() of the node process (probe)';
const useTime = RSS_SOURCE.startsWith('GNU');

let counter = 0;

/**
 * One run of `argv` in `cwd`. `probe` preloads probe.cjs (node commands
 * only) to learn whether the TypeScript compiler was loaded. `timeoutMs`
 * kills the command (coreutils `timeout`, inside GNU time so that the
 * command itself is killed) and marks the run `killed`.
 */
export function runOnce({ argv, cwd, env = {}, probe = false, timeoutMs }) {
  const id = `${process.pid}-${counter++}`;
  const timeFile = path.join(os.tmpdir(), `tripwire-bench-time-${id}`);
  const probeFile = path.join(os.tmpdir(), `tripwire-bench-probe-${id}`);
  const childEnv = { ...process.env, NO_COLOR: '1', ...env };
  if (probe) {
    childEnv.NODE_OPTIONS = `${childEnv.NODE_OPTIONS ?? ''} --require ${PROBE}`.trim();
    childEnv.TRIPWIRE_BENCH_PROBE = probeFile;
  }
  const limited = timeoutMs === undefined ? argv : ['timeout', '-s', 'KILL', String(Math.ceil(timeoutMs / 1000)), ...argv];
  const [command, ...args] = useTime ? [TIME, '-f', '%M %U %S', '-o', timeFile, ...limited] : limited;
  const started = performance.now();
  const child = spawnSync(command, args, { cwd, env: childEnv, encoding: 'utf8', maxBuffer: 1 << 30 });
  const wallMs = performance.now() - started;
  if (child.error) throw child.error;

  let rssKiB = null;
  let cpuMs = null;
  if (useTime) {
    // GNU time writes "Command exited with non-zero status N" before the format line.
    const lines = readFileSync(timeFile, 'utf8').trim().split('\n');
    const [rss, user, system] = (lines.at(-1) ?? '').split(' ').map(Number);
    rssKiB = rss;
    cpuMs = Math.round((user + system) * 1000);
    rmSync(timeFile, { force: true });
  }
  let probes = [];
  if (probe) {
    try {
      probes = readFileSync(probeFile, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    } catch {
      probes = [];
    }
    rmSync(probeFile, { force: true });
    if (!useTime && probes.length > 0) {
      rssKiB = Math.max(...probes.map((p) => p.maxRssKiB));
      cpuMs = Math.round(probes.reduce((sum, p) => sum + p.cpuUs, 0) / 1000);
    }
  }
  return {
    wallMs,
    rssKiB,
    cpuMs,
    exitCode: child.status,
    signal: child.signal,
    killed: timeoutMs !== undefined && child.status === 137,
    stdout: child.stdout,
    stderr: child.stderr,
    typescriptLoaded: probe && probes.length > 0 ? probes.some((p) => p.typescript) : null,
  };
}

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

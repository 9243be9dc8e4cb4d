'use strict';
// Preloaded (NODE_OPTIONS=--require) into the benchmarked tripwire process:
// on exit, appends its peak RSS, CPU time, and whether the TypeScript compiler was
// loaded (a warm run must not load it) to $TRIPWIRE_BENCH_PROBE.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a --require preload is CommonJS, and require.cache is what it inspects
const { appendFileSync } = require('node:fs');

const out = process.env.TRIPWIRE_BENCH_PROBE;
if (out) {
  process.on('exit', () => {
    const typescript = Object.keys(require.cache).some((key) => /[\\/]node_modules[\\/]typescript[\\/]lib[\\/]typescript\.js$/.test(key));
    const usage = process.resourceUsage();
    appendFileSync(out, `${JSON.stringify({ pid: process.pid, maxRssKiB: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime, typescript })}\n`);
  });
}

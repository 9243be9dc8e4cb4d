'use strict';
// Preloaded (NODE_OPTIONS=--require) into the benchmarked tripwire process,
// and so into each of its worker threads: on exit, appends its peak RSS, CPU
// time, and whether the TypeScript compiler was loaded (a warm run must not
// load it) to $TRIPWIRE_BENCH_PROBE. tripwire runs the compiler from its
// source (src/util/code-cache.ts), so the compiler never enters
// require.cache: a read of its file is what tells.
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a --require preload is CommonJS, and require.cache is what it inspects
const fs = require('node:fs');

const COMPILER = /[\\/]node_modules[\\/]typescript[\\/]lib[\\/]typescript\.js$/;
const out = process.env.TRIPWIRE_BENCH_PROBE;
if (out) {
  let read = false;
  const readFileSync = fs.readFileSync;
  fs.readFileSync = function (file, ...rest) {
    if (typeof file === 'string' && COMPILER.test(file)) read = true;
    return readFileSync.call(this, file, ...rest);
  };
  process.on('exit', () => {
    const typescript = read || Object.keys(require.cache).some((key) => COMPILER.test(key));
    const usage = process.resourceUsage();
    fs.appendFileSync(out, `${JSON.stringify({ pid: process.pid, maxRssKiB: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime, typescript })}\n`);
  });
}

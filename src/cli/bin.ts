#!/usr/bin/env node
import { exitWhenFlushed, processIo } from './io.js';
import { main } from './main.js';

exitWhenFlushed(await main(process.argv.slice(2), processIo()));

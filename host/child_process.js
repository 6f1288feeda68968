// The host's node:child_process for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
/** @typedef {import('node:child_process').ChildProcess} ChildProcess */
module.exports = require('node:child_process');

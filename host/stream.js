// The host's node:stream for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
/** @typedef {import('node:stream').Readable} Readable */
module.exports = require('node:stream');

// The host's node:module for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
module.exports = require('node:module');

// The host's node:util for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
module.exports = require('node:util');

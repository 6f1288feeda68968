// The host's node:fs for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
module.exports = require('node:fs');

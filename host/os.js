// The host's node:os for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
module.exports = require('node:os');

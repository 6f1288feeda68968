// The host's node:zlib for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
module.exports = require('node:zlib');

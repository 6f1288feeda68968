// The host's node:net for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
/** @typedef {import('node:net').AddressInfo} AddressInfo */
module.exports = require('node:net');

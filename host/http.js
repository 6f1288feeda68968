// The host's node:http for the tests, the emulator, the benchmarks and the demo (see globals.js for why).
/** @typedef {import('node:http').IncomingMessage} IncomingMessage */
/** @typedef {import('node:http').ServerResponse} ServerResponse */
/** @typedef {import('node:http').Server} Server */
module.exports = require('node:http');

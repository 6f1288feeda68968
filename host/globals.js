// The host's globals for the tests, the emulator, the benchmarks and the demo.
//
// n8n's lint (`n8n-node lint`, n8n's own eslint config) applies its n8n Cloud rules to every
// `.ts` file of the repository: no Node.js modules (fs, path, child_process, http, ...), no
// process, timers, console or __dirname. Those rules are for the nodes that run inside n8n;
// the tests, the emulator, the benchmarks and the demo are programs on the developer's machine
// that start servers, spawn n8n, read files and time things. They take what they need from the
// host through the small plain JavaScript modules of host/ (`.js`, which n8n's config does not
// lint), so every `.ts` file passes n8n's rules and the published code (nodes/, credentials/)
// cannot reach any of this: eslint.legacy.config.mjs refuses an import of test/, bench/,
// emulator/ or host/ there, and host/ is not in package.json's `files`. host/ sits at the top,
// beside them, so none of them depends on another to reach the host.
//
// Getters, not copies: each use reads the global of the moment, so jest's fake timers and
// jest's console (installed per test file) are the ones a test sees, as before.
module.exports = {
	get process() {
		return globalThis.process;
	},
	get console() {
		return globalThis.console;
	},
	get globalThis() {
		return globalThis;
	},
	get setTimeout() {
		return globalThis.setTimeout;
	},
	get clearTimeout() {
		return globalThis.clearTimeout;
	},
	get setInterval() {
		return globalThis.setInterval;
	},
	get clearInterval() {
		return globalThis.clearInterval;
	},
	get setImmediate() {
		return globalThis.setImmediate;
	},
	get clearImmediate() {
		return globalThis.clearImmediate;
	},
};

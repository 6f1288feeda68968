'use strict';
/**
 * Entry of the child process started by package.test.ts with NODE_PATH set to this project's
 * node_modules (standing in for the module folders n8n puts on NODE_PATH at start; Node reads
 * NODE_PATH once, at process start, hence a process of its own).
 *
 * Plain JS so that it runs under plain `node`: it compiles the repository's own TypeScript
 * (the test harness standing in for n8n, and load-and-run.ts) on the fly with the project's
 * `typescript`, then runs load-and-run.ts. The installed package itself is plain JS and is
 * loaded by n8n-core's PackageDirectoryLoader, not by this hook.
 */
const { join, sep } = require('node:path');
const ts = require('typescript');

const { compileTestSources } = require('./compile-test-sources');

const projectRoot = join(__dirname, '..', '..');
const ownSources = ['test', 'harness'].map((folder) => join(projectRoot, folder) + sep);

compileTestSources(ts, ownSources, 'n8n-child.js');

require('./load-and-run.ts').runFromStdin();

/**
 * `npm run build`: n8n's build (`n8n-node build`: tsc, then icons and codex files copied into
 * dist/), as it is in a terminal. When the output is not a terminal (a log file, CI, the
 * real-n8n scripts, `npm test > log`), its spinner would be written as text, one frame every
 * 80 ms: there the same build runs with the spinner's own quiet mode (`CI=true`: one line per
 * stage), no colours, and without the frame and cursor codes (quiet-output.js), so the log gets
 * one line per stage.
 * The exit code is n8n-node's.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import quietOutput from './quiet-output.js';

const { quiet } = quietOutput;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'node_modules', '.bin', 'n8n-node');

function build() {
	if (process.stdout.isTTY) return spawn(bin, ['build'], { cwd: root, stdio: 'inherit' });
	const env = { ...process.env, CI: 'true', NO_COLOR: '1', FORCE_COLOR: '0' };
	const child = spawn(bin, ['build'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	child.stdout.on('data', (d) => (out += d));
	child.stderr.on('data', (d) => (out += d));
	child.on('close', () => process.stdout.write(`${quiet(out)}\n`));
	return child;
}

const child = build();
child.on('error', (error) => {
	console.error(`n8n-node build could not start: ${error.message}`);
	process.exitCode = 1;
});
child.on('close', (code, signal) => (process.exitCode = code ?? (signal ? 1 : 0)));

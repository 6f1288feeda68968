/**
 * Quiet logs, no spinner frames: `npm run build` is n8n's `n8n-node build`, whose spinner
 * (@clack/prompts) redraws a frame every 80 ms. Where the output is not a terminal,
 * scripts/build.mjs runs it in the spinner's CI mode and passes its output through
 * scripts/quiet-output.js: the log gets one line per stage and no frame. The samples are what
 * the spinner writes (frame, cursor moves, erases, colours) in both modes.
 * Run: npx jest test/packaging/quiet-build
 */
import { quiet } from '../../scripts/quiet-output';
import { readFileSync } from '../../host/fs';
import { join } from '../../host/path';

const ROOT = join(module.path, '..', '..');
const ESC = '\u001b';
const colour = (code: number, text: string): string => `${ESC}[${code}m${text}${ESC}[39m`;
/** The spinner's redraw: back to the line start, up `n` lines, erase down. */
const redraw = (n: number): string => `${ESC}[999D${n ? `${ESC}[${n}A` : ''}${ESC}[J`;
const FRAMES = ['\u25d2', '\u25d0', '\u25d3', '\u25d1'];

/** A terminal spinner: `count` frames of `stage`, then its stop line. */
function terminalSpinner(stage: string, count: number, done: string): string {
	const frames = Array.from(
		{ length: count },
		(_, i) => `${i ? redraw(0) : ''}${colour(35, FRAMES[i % 4])}  ${stage}${'.'.repeat(i % 4)}`,
	);
	return `${colour(90, '\u2502')}\n${frames.join('')}${redraw(0)}${colour(32, '\u25c7')}  ${done}\n`;
}

/** The same spinner with CI=true: one frame, a line break, the redraw, the stop line. */
const ciSpinner = (stage: string, done: string): string =>
	`${colour(90, '\u2502')}\n${colour(35, FRAMES[0])}  ${stage}...\n${redraw(1)}${colour(32, '\u25c7')}  ${done}\n`;

const header = `${colour(90, '\u250c')}  n8n-node build  v0.48.3\n`;
const footer = `${colour(90, '\u2502')}\n${colour(90, '\u2514')}  \u2713 Build successful\n`;
const EXPECTED = [
	'\u250c  n8n-node build  v0.48.3',
	'\u2502',
	'\u25c7  TypeScript build successful',
	'\u2502',
	'\u25c7  Copied static files',
	'\u2502',
	'\u2514  \u2713 Build successful',
].join('\n');

describe('the build log has one line per stage and no spinner frame', () => {
	test('a terminal spinner of 272 frames', () => {
		const raw =
			header +
			terminalSpinner('Building TypeScript files', 268, 'TypeScript build successful') +
			terminalSpinner('Copying static files', 4, 'Copied static files') +
			footer;
		const out = quiet(raw);
		expect(out).toBe(EXPECTED);
		for (const mark of [...FRAMES, ESC, '\r']) expect(out).not.toContain(mark);
	});

	test("the spinner's CI mode, as scripts/build.mjs runs it", () => {
		const out = quiet(
			header +
				ciSpinner('Building TypeScript files', 'TypeScript build successful') +
				ciSpinner('Copying static files', 'Copied static files') +
				footer,
		);
		expect(out).toBe(EXPECTED);
	});

	test('what a failed build prints stays', () => {
		const raw = `${header}${ciSpinner('Building TypeScript files', 'TypeScript build failed')}${colour(31, '\u25a0')}  nodes/x.ts(1,1): error TS2304: Cannot find name 'y'.\n`;
		expect(quiet(raw)).toContain("nodes/x.ts(1,1): error TS2304: Cannot find name 'y'.");
	});

	test('npm run build is n8n-node build through scripts/build.mjs, which uses this filter and the CI mode off a terminal', () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
			scripts: Record<string, string>;
		};
		expect(pkg.scripts.build).toBe('node scripts/build.mjs');
		const script = readFileSync(join(ROOT, 'scripts', 'build.mjs'), 'utf8');
		expect(script).toMatch(/spawn\(bin, \['build'\]/);
		expect(script).toMatch(/CI: 'true'/);
		expect(script).toMatch(/quiet\(out\)/);
	});
});

/**
 * The output of a command-line tool made fit for a log (used by scripts/build.mjs for
 * `n8n-node build`): its spinner's frames and terminal control codes removed, one line per stage.
 * @n8n/node-cli's spinner (@clack/prompts) redraws a frame every 80 ms with cursor moves and
 * erases; with CI=true it writes one frame per stage. Either way only the stage lines remain.
 */
'use strict';

/** Cursor moves and erases: where a redraw starts, so a line break. */
const REDRAW = /\u001b\[\d*[ABDGJK]|\u001b\[\d*;\d*[Hf]/g;
/** Other control sequences (colours, modes) and carriage returns. */
const CONTROL = /\u001b\[[0-9;?]*[ -/]*[@-~]|\u001b[@-Z\\-_]|\r/g;
/** A spinner frame: a frame character (Unicode or the ASCII fallback), two spaces, the stage and its dots. */
const FRAME = /^(?:[\u25d2\u25d0\u25d3\u25d1] {2}.*|[\u2022oO0] {2}.*\.{1,3})$/;

/** `text` without spinner frames, control codes and blank lines. */
function quiet(text) {
	return text
		.replace(REDRAW, '\n')
		.replace(CONTROL, '')
		.split('\n')
		.map((l) => l.trimEnd())
		.filter((l) => l !== '' && !FRAME.test(l))
		.join('\n');
}

module.exports = { quiet };

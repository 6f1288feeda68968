const { src, dest, task } = require('gulp');

/** Copies node and credential icons and the nodes' codex files (*.node.json) next to the compiled files in dist/. */
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'nodes/**/*.node.json', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(dest('dist'));
}

task('build:icons', buildIcons);

const { src, dest, task } = require('gulp');

/** Copies node and credential icons next to the compiled files in dist/. */
function buildIcons() {
	return src(['nodes/**/*.{png,svg}', 'credentials/**/*.{png,svg}'], { base: '.', encoding: false }).pipe(dest('dist'));
}

task('build:icons', buildIcons);

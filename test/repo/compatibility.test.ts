/**
 * The README's Compatibility table lists exactly the releases the version matrix runs on
 * (test/matrix/releases.ts), with the n8n-core, n8n-workflow and zod each ships.
 */
import { readdirSync, readFileSync, statSync } from '../../host/fs';
import { join } from '../../host/path';

import { N8N_RELEASES } from '../matrix/releases';

const readme = readFileSync(join(module.path, '..', '..', 'README.md'), 'utf8');

function compatibilityRows(): string[][] {
	const section = readme.slice(
		readme.indexOf('## Compatibility'),
		readme.indexOf('\n## ', readme.indexOf('## Compatibility') + 1),
	);
	return section
		.split('\n')
		.filter((line) => /^\| \d+\.\d+\.\d+ \|/.test(line))
		.map((line) =>
			line
				.split('|')
				.slice(1, -1)
				.map((cell) => cell.trim()),
		);
}

test('one row per matrix release, in order, with its n8n-core, n8n-workflow and zod', () => {
	expect(compatibilityRows().map((row) => row.slice(0, 4))).toEqual(
		N8N_RELEASES.map((r) => [r.n8n, r.n8nCore, r.n8nWorkflow, r.zod]),
	);
});

test('the stated floor is the oldest release the matrix runs', () => {
	const oldest = N8N_RELEASES[0].n8n.split('.').slice(0, 2).join('.');
	expect(readme).toContain(`**Supported: n8n ${oldest} and later, up to the newest 2.x**`);
	expect(compatibilityRows()[0][5]).toMatch(/oldest supported/);
});

test("published code imports zod only as 'zod/v3' (the v3 API in zod 3.25 and in every zod 4, whose root is the v4 API)", () => {
	const root = join(module.path, '..', '..');
	const sources = (dir: string): string[] =>
		readdirSync(dir).flatMap((name) => {
			const file = join(dir, name);
			return statSync(file).isDirectory() ? sources(file) : file.endsWith('.ts') ? [file] : [];
		});
	const imports = ['nodes', 'credentials']
		.flatMap((dir) => sources(join(root, dir)))
		.flatMap((file) =>
			[...readFileSync(file, 'utf8').matchAll(/from '(zod[^']*)'/g)].map((m) => m[1]),
		);
	expect(imports.length).toBeGreaterThan(0);
	expect([...new Set(imports)]).toEqual(['zod/v3']);
});

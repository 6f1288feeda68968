/**
 * A minimal but real PDF 1.4 file: one page per section, Helvetica text lines, a correct
 * cross-reference table.
 */

interface PdfSection {
	title: string;
	lines: string[];
}

/** PDF string literal: ASCII only, with `\`, `(` and `)` escaped. */
function pdfText(s: string): string {
	return s
		.replace(/[^\x20-\x7e]/g, '?')
		.replace(/\\/g, '\\\\')
		.replace(/\(/g, '\\(')
		.replace(/\)/g, '\\)');
}

export function makePdf(sections: PdfSection[]): Buffer {
	const pages = sections.length ? sections : [{ title: '(empty)', lines: [] }];
	// Objects: 1 catalog, 2 pages, 3 font, then per page: page object + content stream.
	const objects: string[] = [];
	const pageIds = pages.map((_, i) => 4 + i * 2);
	objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
	objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
	objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>';
	pages.forEach((section, i) => {
		const pageId = pageIds[i];
		const text = [
			'BT',
			'/F1 18 Tf',
			'50 790 Td',
			`(${pdfText(section.title)}) Tj`,
			'/F1 11 Tf',
			...section.lines.slice(0, 60).flatMap((line) => ['0 -16 Td', `(${pdfText(line)}) Tj`]),
			'ET',
		].join('\n');
		objects[pageId] =
			`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
		objects[pageId + 1] =
			`<< /Length ${Buffer.byteLength(text, 'latin1')} >>\nstream\n${text}\nendstream`;
	});

	let out = '%PDF-1.4\n%\xe2\xe3\xcf\xd3\n';
	const offsets: number[] = [];
	for (let id = 1; id < objects.length; id++) {
		offsets[id] = Buffer.byteLength(out, 'latin1');
		out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
	}
	const xref = Buffer.byteLength(out, 'latin1');
	out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
	for (let id = 1; id < objects.length; id++)
		out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
	out += `trailer\n<< /Size ${objects.length} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(out, 'latin1');
}

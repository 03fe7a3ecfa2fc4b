/**
 * A benchmark of several parts that can run one part alone (bench:mock's BENCH_MOCK_PARTS) keeps
 * the parts it did not run from the result it replaces: their markdown, their data, and the date
 * they were measured, so running start-up alone does not drop the committed throughput figures.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { RESULTS_DIR } from './report.ts';

/** A part's markdown and when it was measured. */
export interface Part {
	markdown: string;
	date: string;
}

/** What the previous result holds: its data and each part's markdown and date. */
export interface Previous {
	data: Record<string, unknown>;
	parts: Record<string, Part>;
}

/** The note a kept part carries under its heading. */
const KEPT_NOTE = /^_Kept from the run of [^\n]*_\n\n?/m;

/**
 * The previous result named `name` in `folder` (bench/results), split into parts at the headings
 * that open them (`headings`: each part's name and the start of its heading's text; the first part
 * may have none, as older results wrote it). Undefined when there is no previous result.
 */
export async function previousResult(
	name: string,
	headings: readonly { part: string; heading: RegExp }[],
	folder = RESULTS_DIR,
): Promise<Previous | undefined> {
	let json: { date?: string; data?: Record<string, unknown> };
	let markdown: string;
	try {
		json = JSON.parse(await readFile(path.join(folder, `${name}.json`), 'utf8')) as typeof json;
		markdown = await readFile(path.join(folder, `${name}.md`), 'utf8');
	} catch {
		// No earlier report, or one cut short: the table starts afresh.
		return undefined;
	}
	const data = json.data ?? {};
	const dates = (data['measured'] ?? {}) as Record<string, string>;
	// The title, a blank line and the date line come before the parts.
	const body = markdown.split('\n').slice(3).join('\n');
	const starts = headings.map(({ part, heading }) => ({ part, at: body.search(heading) }));
	const parts: Record<string, Part> = {};
	starts.forEach(({ part, at }, index) => {
		const from = index === 0 ? 0 : at;
		if (from < 0) return;
		const next = starts.slice(index + 1).find((later) => later.at >= 0)?.at ?? body.length;
		const text = body.slice(from, next).replace(KEPT_NOTE, '').trim();
		if (text) parts[part] = { markdown: text, date: dates[part] ?? json.date ?? 'unknown' };
	});
	return { data, parts };
}

/**
 * A kept part's markdown under its heading (its own, or `heading` when an older result wrote it
 * without one), with a note saying when it was measured and why it was kept.
 */
export function keptMarkdown(part: Part, heading: string, why: string): string[] {
	const lines = part.markdown.split('\n');
	const [own = ''] = lines;
	const body = own.startsWith('#') ? lines.slice(1).join('\n').trim() : part.markdown;
	return [
		own.startsWith('#') ? own : heading,
		'',
		`_Kept from the run of ${part.date}: ${why}._`,
		'',
		body,
		'',
	];
}

import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keptMarkdown, previousResult } from '../../../bench/lib/kept-parts.ts';

const HEADINGS = [
	{ part: 'throughput', heading: /^## Throughput/m },
	{ part: 'startup', heading: /^##+ Start-up/m },
] as const;

let folder: string;
beforeEach(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-kept-parts-'));
});
afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

/** Writes a previous result as writeResult does: JSON with the date and data, markdown with a title and date line. */
async function writeResult(data: Record<string, unknown>, body: string): Promise<void> {
	await writeFile(
		path.join(folder, 'mock.json'),
		JSON.stringify({ date: '2026-11-24T06:50:00.000Z', data }),
	);
	await writeFile(
		path.join(folder, 'mock.md'),
		`# Mock\n\n2026-11-24T06:50:00.000Z, 2 cores.\n\n${body}\n`,
	);
}

describe('previousResult', () => {
	it('splits an older result, whose throughput part has no heading, at the start-up table', async () => {
		await writeResult(
			{ rows: [1, 2] },
			'| server | rps |\n|---|---|\n| ours | 7000 |\n\nBudget met.\n\n### Start-up and memory by number of views\n\n| views |\n|---|\n| 8 |',
		);
		const previous = await previousResult('mock', HEADINGS, folder);
		expect(previous?.data).toEqual({ rows: [1, 2] });
		expect(previous?.parts['throughput']).toEqual({
			markdown: '| server | rps |\n|---|---|\n| ours | 7000 |\n\nBudget met.',
			date: '2026-11-24T06:50:00.000Z',
		});
		expect(previous?.parts['startup']?.markdown).toBe(
			'### Start-up and memory by number of views\n\n| views |\n|---|\n| 8 |',
		);
	});

	it('takes a kept part’s own date, and drops its old note so a part kept twice has one', async () => {
		await writeResult(
			{ measured: { throughput: '2026-11-20T10:00:00.000Z', startup: '2026-11-24T06:50:00.000Z' } },
			'## Throughput\n\n_Kept from the run of 2026-11-20T10:00:00.000Z: this run measured startup only (BENCH_MOCK_PARTS)._\n\n| server |\n\n## Start-up\n\n### Beside the peers\n\n| server |',
		);
		const previous = await previousResult('mock', HEADINGS, folder);
		expect(previous?.parts['throughput']).toEqual({
			markdown: '## Throughput\n\n| server |',
			date: '2026-11-20T10:00:00.000Z',
		});
		expect(previous?.parts['startup']).toEqual({
			markdown: '## Start-up\n\n### Beside the peers\n\n| server |',
			date: '2026-11-24T06:50:00.000Z',
		});
	});

	it('is undefined when there is no previous result', async () => {
		await expect(previousResult('mock', HEADINGS, folder)).resolves.toBeUndefined();
	});
});

describe('keptMarkdown', () => {
	it('puts the note under the part’s own heading', () => {
		expect(
			keptMarkdown(
				{ markdown: '## Throughput\n\n| server |', date: '2026-11-20' },
				'## Other',
				'this run measured startup only',
			).join('\n'),
		).toBe(
			'## Throughput\n\n_Kept from the run of 2026-11-20: this run measured startup only._\n\n| server |\n',
		);
	});

	it('gives an older part without a heading the heading it is kept under', () => {
		expect(
			keptMarkdown({ markdown: '| server |', date: '2026-11-20' }, '## Throughput', 'why').join(
				'\n',
			),
		).toBe('## Throughput\n\n_Kept from the run of 2026-11-20: why._\n\n| server |\n');
	});
});

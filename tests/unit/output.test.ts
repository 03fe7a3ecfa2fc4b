/** The mock's standard output: lines gathered and written together, none lost, none held long. */
import { openSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FLUSH_MS, standardOutput } from '../../mock/output.ts';

let folder: string;
let file: string;

beforeEach(async () => {
	folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-output-'));
	file = path.join(folder, 'out.log');
});

afterEach(async () => {
	await rm(folder, { recursive: true, force: true });
});

describe('standardOutput', () => {
	it('writes a lone line within moments, without waiting for more', async () => {
		const out = standardOutput(openSync(file, 'w'));
		out.line('Mock listening on http://127.0.0.1:4010');
		expect(FLUSH_MS).toBe(50);
		await new Promise((resolve) => setTimeout(resolve, 400));
		expect(readFileSync(file, 'utf8')).toBe('Mock listening on http://127.0.0.1:4010\n');
		await out.close();
	});

	it('writes every line, in order, before close resolves', async () => {
		const out = standardOutput(openSync(file, 'w'));
		const lines = Array.from({ length: 5000 }, (_, index) => `line ${index}`);
		for (const line of lines) out.line(line);
		out.write('no line break');
		await out.close();
		expect(readFileSync(file, 'utf8')).toBe(`${lines.join('\n')}\nno line break`);
	});

	it('writes text beyond ASCII as UTF-8, whole', async () => {
		const out = standardOutput(openSync(file, 'w'));
		out.line('GET /api/v2/users 200 0.4ms user="Zoë Ngữ" target=/a…');
		out.say('Mock reloaded: 1 view (changed café).');
		await out.close();
		expect(readFileSync(file)).toEqual(
			Buffer.from(
				'GET /api/v2/users 200 0.4ms user="Zo\u00eb Ng\u1eef" target=/a\u2026\nMock reloaded: 1 view (changed caf\u00e9).\n',
				'utf8',
			),
		);
	});
});

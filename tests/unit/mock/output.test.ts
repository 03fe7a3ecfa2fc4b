/** The mock's standard output: lines gathered and written together, none lost, none held long. */
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, readFileSync, readSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
	BATCH_LINES,
	FLUSH_MS,
	prefixed,
	relayedOutput,
	standardOutput,
	type Relayed,
} from '../../../mock/output.ts';

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
		out.say('Mock stopped.');
		out.line('last');
		out.write('12:23:50 [build] ✓ Completed\nno line break');
		await out.close();
		expect(readFileSync(file, 'utf8')).toBe(
			`${lines.join('\n')}\nMock stopped.\nlast\n12:23:50 [build] ✓ Completed\nno line break`,
		);
	});

	it('words a line given as a function once, when its batch is written, in its place', async () => {
		const out = standardOutput(openSync(file, 'w'));
		let worded = 0;
		out.line('first');
		out.line(() => {
			worded += 1;
			return 'GET /api/v2/users 200 0.4ms';
		});
		expect(worded).toBe(0);
		out.say('Mock reloaded: 1 view.');
		expect(worded).toBe(1);
		await out.close();
		expect(worded).toBe(1);
		expect(readFileSync(file, 'utf8')).toBe(
			'first\nGET /api/v2/users 200 0.4ms\nMock reloaded: 1 view.\n',
		);
	});

	it('puts a prefix before a line, whether given as text or as a function', async () => {
		const out = standardOutput(openSync(file, 'w'));
		out.line(prefixed('[mock] ', 'Mock listening'));
		out.line(prefixed('[mock] ', () => 'GET /api/v2/users 200 0.4ms'));
		await out.close();
		expect(readFileSync(file, 'utf8')).toBe(
			'[mock] Mock listening\n[mock] GET /api/v2/users 200 0.4ms\n',
		);
	});

	it(`writes ${BATCH_LINES} lines at once, without waiting ${FLUSH_MS} ms for more`, async () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		try {
			const out = standardOutput(openSync(file, 'w'));
			expect(BATCH_LINES).toBe(256);
			const lines = Array.from({ length: 256 }, (_, index) => `line ${index}`);
			for (const line of lines.slice(0, 255)) out.line(line);
			// Real I/O had time to happen: nothing is written while the 50 ms have not passed.
			await new Promise((resolve) => setImmediate(resolve));
			await new Promise((resolve) => setImmediate(resolve));
			expect(readFileSync(file, 'utf8')).toBe('');
			out.line(lines[255] ?? '');
			await vi.waitFor(() => expect(readFileSync(file, 'utf8')).toBe(`${lines.join('\n')}\n`));
			await out.close();
		} finally {
			vi.useRealTimers();
		}
	});

	it('drops lines a reader does not take beyond its limit, counts them, and says so once it reads', async () => {
		const fifo = path.join(folder, 'terminal');
		execFileSync('mkfifo', [fifo]);
		// A terminal that stopped reading: a pipe nobody reads, its 64 KiB buffer soon full.
		const writer = openSync(fifo, constants.O_RDWR | constants.O_NONBLOCK);
		const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
		const out = standardOutput(writer, 100 * 1024);
		const lines = Array.from({ length: 3000 }, (_, index) => `line ${index} ${'x'.repeat(90)}`);
		for (const line of lines) out.line(line);
		let text = '';
		const chunk = Buffer.alloc(64 * 1024);
		/** Bytes read from the pipe, or 0 when it holds none now. */
		const readSome = (): number => {
			try {
				return readSync(reader, chunk);
			} catch (error) {
				if ((error as NodeJS.ErrnoException).code === 'EAGAIN') return 0;
				throw error;
			}
		};
		const take = (): void => {
			for (let read = readSome(); read > 0; read = readSome()) {
				text += chunk.toString('utf8', 0, read);
			}
		};
		// The reader comes back: what was held flows until nothing more comes for 300 ms…
		for (let before = -1; text.length !== before;) {
			before = text.length;
			await new Promise((resolve) => setTimeout(resolve, 300));
			take();
		}
		// …then the next line says what was dropped.
		out.say('Mock reloaded: 1 view.');
		await vi.waitFor(
			() => {
				take();
				expect(text).toMatch(/Mock reloaded: 1 view\.\n$/);
			},
			{ timeout: 5000 },
		);
		// Each notice stands where its lines were: read back, every line is there or counted.
		const written = text.split('\n').slice(0, -1);
		expect(written.at(-1)).toBe('Mock reloaded: 1 view.');
		const notice = /^\[(\d+) lines of output dropped: standard output was not being read\]$/;
		let next = 0;
		let notices = 0;
		let dropped = 0;
		for (const line of written.slice(0, -1)) {
			const count = notice.exec(line)?.[1];
			if (count === undefined) {
				expect(line).toBe(lines[next]);
				next += 1;
			} else {
				notices += 1;
				dropped += Number(count);
				next += Number(count);
			}
		}
		expect(next).toBe(3000);
		expect(notices).toBeGreaterThan(0);
		// The pipe holds 64 KiB and the writer 100 KiB more, about 1,700 lines of 3,000.
		expect(dropped).toBeGreaterThan(600);
		expect(3000 - dropped).toBeGreaterThan(600);
		await out.close();
		closeSync(reader);
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

describe('relayedOutput, a worker’s output (MOCK_WORKERS)', () => {
	it('sends lines to the primary in whole batches, messages after the lines before them', async () => {
		const sent: Relayed[] = [];
		let handedOver = 0;
		const out = relayedOutput(async (message) => {
			sent.push(message);
			await new Promise((resolve) => setTimeout(resolve, 10));
			handedOver += 1;
		});
		for (let index = 0; index < BATCH_LINES + 3; index += 1) out.line(() => `line ${index}`);
		// A full batch goes at once, as one message of whole lines.
		expect(sent).toHaveLength(1);
		expect(sent[0]).toEqual({
			kind: 'lines',
			text: Array.from({ length: BATCH_LINES }, (_, index) => `line ${index}\n`).join(''),
		});
		out.say('Mock reloaded: 9 views (added qa-eu-west).');
		expect(sent.slice(1)).toEqual([
			{
				kind: 'lines',
				text: `line ${BATCH_LINES}\nline ${BATCH_LINES + 1}\nline ${BATCH_LINES + 2}\n`,
			},
			{ kind: 'say', text: 'Mock reloaded: 9 views (added qa-eu-west).' },
		]);
		out.line('last');
		await out.close();
		expect(sent.at(-1)).toEqual({ kind: 'lines', text: 'last\n' });
		expect(handedOver).toBe(sent.length);
	});

	it('sends a lone line within moments', async () => {
		const sent: Relayed[] = [];
		const out = relayedOutput((message) => {
			sent.push(message);
			return Promise.resolve();
		});
		out.line('one');
		expect(sent).toEqual([]);
		await new Promise((resolve) => setTimeout(resolve, FLUSH_MS * 4));
		expect(sent).toEqual([{ kind: 'lines', text: 'one\n' }]);
		await out.close();
	});
});

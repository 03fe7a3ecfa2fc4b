/**
 * A stream of JSON lines (QUERY's `application/jsonl` answer) shown by the try-it panel: as it
 * came, one item a line, with a note that says it is a stream, not that it is no JSON.
 */
import { describe, expect, it } from 'vitest';
import { formatBody, readBody } from '../../../../src/client/try-it/exchange.ts';

const STREAM = '{"name":"Ada","email":"ada@example.com","role":"admin"}\n{"name":"Ben"}\n';

/** The answer's bytes, read whole. */
const read = (text: string) =>
	readBody({ bytes: new TextEncoder().encode(text), ending: 'complete' });

describe('a stream of JSON lines in the try-it panel', () => {
	it('is shown as it came, noted as a stream of JSON lines', () => {
		expect(formatBody(read(STREAM), 'application/jsonl; charset=utf-8')).toEqual({
			text: STREAM,
			notes: [
				'The body is a stream of JSON lines (Content-Type: application/jsonl), one item a line; it is shown as it came.',
			],
		});
	});

	it('names each of the JSON-lines media types the check reads line by line', () => {
		for (const type of ['application/x-ndjson', 'application/x-jsonlines']) {
			expect(formatBody(read(STREAM), type).notes).toEqual([
				`The body is a stream of JSON lines (Content-Type: ${type}), one item a line; it is shown as it came.`,
			]);
		}
	});

	it('still says a body of another type that is not JSON is shown as text', () => {
		expect(formatBody(read(STREAM), 'text/plain').notes).toEqual([
			'The body is not JSON (Content-Type: text/plain); it is shown as text.',
		]);
		expect(formatBody(read(STREAM), null).notes).toEqual([
			'The body is not JSON; it is shown as text.',
		]);
	});
});

import { describe, expect, it } from 'vitest';
import { optionsText, readOptions } from '../../../../src/client/try-it/request-options.ts';
import { proxyFindings } from '../../../../src/client/try-it/exchange.ts';

describe('what try-it keeps of the request options for the tab', () => {
	it('keeps headers, query parameters and controls, but never an Authorization header or a key', () => {
		const text = optionsText({
			headers: [
				{ name: 'Accept', value: 'application/json' },
				{ name: 'authorization', value: 'Bearer whatever' },
				{ name: 'X-Token', value: 'ick-4f1c9a07-Qx7m' },
				{ name: 'X-Note', value: 'bearer abc' },
			],
			query: [
				{ name: '__code', value: '401' },
				{ name: 'key', value: 'zz-0123abcd-AbC9' },
			],
			controls: {
				code: '401',
				example: 'production',
				dynamic: true,
				delay: '100-500',
				fault: 'reset',
			},
		});
		expect(JSON.parse(text)).toEqual({
			headers: [{ name: 'Accept', value: 'application/json' }],
			query: [{ name: '__code', value: '401' }],
			controls: {
				code: '401',
				example: 'production',
				dynamic: true,
				delay: '100-500',
				fault: 'reset',
			},
		});
		expect(text).not.toMatch(/ick-|Bearer|bearer|zz-/);
	});

	it('reads garbage from storage as no options, member by member', () => {
		expect(readOptions('{"headers":')).toEqual({ headers: [], query: [], controls: {} });
		expect(
			readOptions(
				JSON.stringify({
					headers: [{ name: 7 }, { name: 'X-A', value: 'b' }, null],
					query: 'nope',
					controls: { code: '<b>', delay: '1e9', dynamic: 'yes', fault: 'slow-body' },
				}),
			),
		).toEqual({
			headers: [{ name: 'X-A', value: 'b' }],
			query: [],
			controls: { fault: 'slow-body' },
		});
	});

	describe('a row whose value holds a key in a form derived from it', () => {
		const key = 'ick-4f1c9a07-Qx7m';
		const bytes = Buffer.from(key);
		const forms: [string, string][] = [
			['base64', bytes.toString('base64')],
			['base64url', bytes.toString('base64url')],
			['hex', bytes.toString('hex')],
			['hex in upper case', bytes.toString('hex').toUpperCase()],
			['upper case', key.toUpperCase()],
			['+ for its dashes', key.replaceAll('-', '+')],
			['base64 of "Basic user:<key>"', `Basic ${Buffer.from(`user:${key}`).toString('base64')}`],
		];
		const encoded: [string, (text: string) => string][] = [
			['as typed', (text) => text],
			['percent-encoded', (text) => encodeURIComponent(text)],
			[
				'every character percent-encoded',
				(text) => [...text].map((c) => `%${c.charCodeAt(0).toString(16)}`).join(''),
			],
			['percent-encoded twice', (text) => encodeURIComponent(encodeURIComponent(text))],
		];
		const cases = forms.flatMap(([form, text]) =>
			encoded.map(([how, encode]) => [`${form}, ${how}`, encode(text)] as const),
		);

		it.each(cases)('is not kept for the tab: %s', (_case, value) => {
			const text = optionsText({
				headers: [
					{ name: 'X-Token', value },
					{ name: 'Accept', value: 'application/json' },
				],
				query: [
					{ name: 'token', value },
					{ name: value, value: '1' },
					{ name: 'page', value: '2' },
				],
				controls: {},
			});
			expect(JSON.parse(text)).toEqual({
				headers: [{ name: 'Accept', value: 'application/json' }],
				query: [{ name: 'page', value: '2' }],
				controls: {},
			});
		});

		it('is not read back from storage either, nor an example that is a key', () => {
			const stored = JSON.stringify({
				headers: [{ name: 'X-Token', value: bytes.toString('hex') }],
				query: [{ name: 'token', value: encodeURIComponent(bytes.toString('base64')) }],
				controls: { example: key.toLowerCase() },
			});
			expect(readOptions(stored)).toEqual({ headers: [], query: [], controls: {} });
		});

		it('keeps base64, hex and text that hold no key', () => {
			const rows = [
				{ name: 'cursor', value: Buffer.from('page-2-of-the-users-list').toString('base64') },
				{ name: 'id', value: '0123456789abcdef'.repeat(2) },
				{ name: 'q', value: 'staging us east' },
			];
			expect(
				JSON.parse(optionsText({ headers: [], query: rows, controls: { example: 'production' } })),
			).toEqual({ headers: [], query: rows, controls: { example: 'production' } });
		});
	});
});

describe("the validating proxy's findings in sl-violations", () => {
	it('lists each violation by its message, and none without the header', () => {
		const header = JSON.stringify([
			{
				location: ['response', 'body'],
				severity: 'Error',
				message: '/users/3/role: must be one of admin, deployer, operator, viewer',
			},
			{
				location: ['response', 'headers', 'www-authenticate'],
				severity: 'Error',
				message: 'WWW-Authenticate: is required but missing',
			},
		]);
		expect(proxyFindings(header)).toEqual([
			'/users/3/role: must be one of admin, deployer, operator, viewer',
			'WWW-Authenticate: is required but missing',
		]);
		expect(proxyFindings(null)).toEqual([]);
		expect(proxyFindings('[]')).toEqual([]);
	});

	it('says a header it cannot read is unreadable, and cleans control characters', () => {
		expect(proxyFindings('not json')).toEqual([
			'(the sl-violations header could not be read: not json)',
		]);
		expect(proxyFindings(JSON.stringify([{ message: 'a\u0007b' }, 3]))).toEqual([
			'a b',
			'(an entry without a message: 3)',
		]);
	});
});

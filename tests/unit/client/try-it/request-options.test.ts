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

import { describe, expect, it } from 'vitest';
import { buildRequest, preferOf } from '../../../../src/client/try-it/request.ts';

const KEY = 'ick-4f1c9a07-Qx7m';
const SERVER = 'http://127.0.0.1:4010';

/** The request built, failing the test when the choices are refused. */
function built(choices: Parameters<typeof buildRequest>[0]) {
	const result = buildRequest(choices);
	if (!result.ok) throw new Error(`refused: ${result.problems.join(' ')}`);
	return result.request;
}

describe('the request a reader builds in try-it', () => {
	it('sends the key, an added header and the mock controls as Prefer, and curl says the same', () => {
		const request = built({
			server: SERVER,
			key: KEY,
			headers: [{ name: ' Accept ', value: 'application/json ' }],
			controls: { code: '401' },
		});
		expect(request.url).toBe('http://127.0.0.1:4010/api/v2/users');
		expect(request.headers).toEqual([
			['Authorization', `Bearer ${KEY}`],
			['Accept', 'application/json'],
			['Prefer', 'code=401'],
		]);
		expect(request.curl).toBe(
			[
				'curl \\',
				`  -H "Authorization: Bearer ${KEY}" \\`,
				'  -H "Accept: application/json" \\',
				'  -H "Prefer: code=401" \\',
				'  http://127.0.0.1:4010/api/v2/users',
			].join('\n'),
		);
	});

	it('writes every control in the order the mock documents, and none when none is chosen', () => {
		expect(
			preferOf({
				fault: 'reset',
				delay: '100-500',
				dynamic: true,
				example: 'production',
				code: '200',
			}),
		).toBe('code=200, example=production, dynamic=true, delay=100-500, fault=reset');
		expect(preferOf({})).toBe('');
		expect(built({ server: SERVER, key: '' }).headers).toEqual([]);
	});

	it('joins the controls to a Prefer header the reader typed, instead of sending two', () => {
		const request = built({
			server: SERVER,
			key: '',
			headers: [{ name: 'prefer', value: 'seed=7' }],
			controls: { dynamic: true },
		});
		expect(request.headers).toEqual([['prefer', 'seed=7, dynamic=true']]);
	});

	it('encodes query parameters in the URL and quotes that URL for the shell', () => {
		const request = built({
			server: `${SERVER}/`,
			key: '',
			query: [
				{ name: '__code', value: '404' },
				{ name: 'q', value: 'a b&c' },
			],
		});
		expect(request.url).toBe('http://127.0.0.1:4010/api/v2/users?__code=404&q=a+b%26c');
		expect(request.curl).toBe("curl 'http://127.0.0.1:4010/api/v2/users?__code=404&q=a+b%26c'");
	});

	it('a typed Authorization header stands in for the key, and an empty header is sent empty by curl too', () => {
		const request = built({
			server: SERVER,
			key: KEY,
			headers: [
				{ name: 'Authorization', value: 'Basic dXNlcjpwYXNz' },
				{ name: 'X-Empty', value: '' },
			],
		});
		expect(request.headers).toEqual([
			['Authorization', 'Basic dXNlcjpwYXNz'],
			['X-Empty', ''],
		]);
		expect(request.curl).not.toContain(KEY);
		expect(request.curl).toContain('-H "X-Empty;"');
	});

	it('leaves out empty rows, and refuses what no request can carry, saying why for each', () => {
		expect(built({ server: SERVER, key: '', headers: [{ name: ' ', value: '' }] }).headers).toEqual(
			[],
		);
		const refused = buildRequest({
			server: SERVER,
			key: '',
			headers: [
				{ name: 'Bad Name', value: '1' },
				{ name: 'X-Ok', value: 'line\nbreak' },
				{ name: '', value: 'orphan' },
			],
			query: [{ name: '', value: 'lost' }],
			controls: { code: '4o1', example: 'Not A Slug', delay: '500-100' },
		});
		expect(refused).toEqual({
			ok: false,
			problems: [
				"Header name “Bad Name” may hold only letters, digits and !#$%&'*+.^_`|~-.",
				'Header “X-Ok” may hold only printable ASCII characters in its value.',
				'A header has a value but no name.',
				'A query parameter has a value but no name.',
				'Status “4o1” is not a three-digit status.',
				"Example “Not A Slug” is not a view's slug, such as production.",
				'Delay “500-100” is not milliseconds from 0 to 30000, or a range such as 100-500.',
			],
		});
		expect(buildRequest({ server: SERVER, key: '', controls: { delay: '30001' } }).ok).toBe(false);
		expect(buildRequest({ server: SERVER, key: '', controls: { delay: '30000' } }).ok).toBe(true);
	});

	it('refuses more than 20 added headers', () => {
		const headers = Array.from({ length: 21 }, (_, index) => ({ name: `X-${index}`, value: '1' }));
		expect(buildRequest({ server: SERVER, key: '', headers })).toEqual({
			ok: false,
			problems: ['At most 20 headers and 20 query parameters can be added.'],
		});
	});
});

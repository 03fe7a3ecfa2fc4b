/** The settings: read from the environment a test gives, or once from process.env. */
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSettings } from '../../../src/sources/settings.ts';

const saved = process.env['MOCK_PORT'];

afterEach(() => {
	if (saved === undefined) delete process.env['MOCK_PORT'];
	else process.env['MOCK_PORT'] = saved;
});

describe('readSettings with an environment', () => {
	it('reads the environment it is given each time, whatever was read before', () => {
		expect(readSettings({ MOCK_PORT: '5010' }).mockPort).toBe(5010);
		expect(readSettings({ MOCK_PORT: '5011' }).mockPort).toBe(5011);
		expect(readSettings({}).mockPort).toBe(4010);
		expect(readSettings({ PORTAL_VIEWS_DIR: 'elsewhere' }).viewsDir).toBe(
			path.resolve('elsewhere'),
		);
	});

	it('names each variable that is wrong', () => {
		expect(() => readSettings({ MOCK_PORT: 'eighty', MOCK_LOG: 'loud' })).toThrow(
			'Invalid environment:\n  MOCK_PORT: expected a TCP port number from 1 to 65535\n  MOCK_LOG: expected on, off or json',
		);
	});
});

describe('readSettings from process.env', () => {
	it('parses process.env once while its variables keep their values: every page gets the same settings', () => {
		process.env['MOCK_PORT'] = '5020';
		const first = readSettings();
		expect(first.mockPort).toBe(5020);
		expect(readSettings()).toBe(first);
		expect(Object.isFrozen(first)).toBe(true);
	});

	it('reads process.env again when a variable changes, and never keeps a wrong value', () => {
		process.env['MOCK_PORT'] = '5021';
		expect(readSettings().mockPort).toBe(5021);
		process.env['MOCK_PORT'] = '5022';
		expect(readSettings().mockPort).toBe(5022);
		process.env['MOCK_PORT'] = 'eighty';
		expect(() => readSettings()).toThrow('MOCK_PORT: expected a TCP port number');
		expect(() => readSettings()).toThrow('MOCK_PORT: expected a TCP port number');
		delete process.env['MOCK_PORT'];
		expect(readSettings().mockPort).toBe(4010);
	});
});

describe('PORTAL_ALLOWED_HOSTS and MOCK_ALLOWED_HOSTS', () => {
	it('add no name by default', () => {
		const settings = readSettings({});
		expect(settings.portalAllowedHosts).toEqual([]);
		expect(settings.mockAllowedHosts).toEqual([]);
	});

	it('read comma-separated names, spaces and empty entries ignored, lower case', () => {
		const settings = readSettings({
			PORTAL_ALLOWED_HOSTS: 'portal.intranet.example, Docs.Intranet.Example,',
			MOCK_ALLOWED_HOSTS: 'mock.intranet.example',
		});
		expect(settings.portalAllowedHosts).toEqual([
			'portal.intranet.example',
			'docs.intranet.example',
		]);
		expect(settings.mockAllowedHosts).toEqual(['mock.intranet.example']);
	});

	it.each(['http://portal.intranet.example', 'portal.intranet.example:8443', 'two words', '*'])(
		'refuses %s, naming the variable and what it expects',
		(name) => {
			expect(() => readSettings({ MOCK_ALLOWED_HOSTS: name })).toThrow(
				/MOCK_ALLOWED_HOSTS: expected host names separated by commas \(mock\.intranet\.example\), without scheme or port; ".*" is not one/,
			);
		},
	);
});

describe('MOCK_HOST', () => {
	it('binds the mock to 127.0.0.1 unless told otherwise', () => {
		expect(readSettings({}).mockHost).toBe('127.0.0.1');
	});

	it.each(['0.0.0.0', '::', '::1', '192.0.2.10', '2001:db8::10'])(
		'takes the address %s',
		(address) => {
			expect(readSettings({ MOCK_HOST: address }).mockHost).toBe(address);
		},
	);

	it.each([
		'localhost',
		'mock.intranet.example',
		'0.0.0.0:4010',
		'[::1]',
		'256.1.1.1',
		'http://0.0.0.0',
	])('refuses %s, naming the variable and what it expects', (value) => {
		expect(() => readSettings({ MOCK_HOST: value })).toThrow(
			`MOCK_HOST: expected an IP address to listen on, such as 127.0.0.1 (this machine only) or 0.0.0.0 (every interface), without port or brackets; "${value}" is not one`,
		);
	});
});

describe('MOCK_LOG and MOCK_LOG_PROBES', () => {
	it('log each request as a logfmt line by default, and probes not at all', () => {
		const settings = readSettings({});
		expect(settings.mockLog).toBe(true);
		expect(settings.mockLogFormat).toBe('logfmt');
		expect(settings.mockLogProbes).toBe(false);
	});

	it('write one JSON object per request with MOCK_LOG=json', () => {
		const settings = readSettings({ MOCK_LOG: 'json' });
		expect(settings.mockLog).toBe(true);
		expect(settings.mockLogFormat).toBe('json');
	});

	it('log nothing with MOCK_LOG=off', () => {
		expect(readSettings({ MOCK_LOG: 'off' }).mockLog).toBe(false);
	});

	it('log the probes too with MOCK_LOG_PROBES=on', () => {
		expect(readSettings({ MOCK_LOG_PROBES: 'on' }).mockLogProbes).toBe(true);
	});

	it('name each value that is wrong', () => {
		expect(() => readSettings({ MOCK_LOG: 'yaml', MOCK_LOG_PROBES: 'yes' })).toThrow(
			'Invalid environment:\n  MOCK_LOG: expected on, off or json\n  MOCK_LOG_PROBES: expected on or off',
		);
	});
});

describe('MOCK_WORKERS', () => {
	it('serves from one process unless told otherwise', () => {
		expect(readSettings({}).mockWorkers).toBe(1);
	});

	it('takes a number of workers', () => {
		expect(readSettings({ MOCK_WORKERS: '4' }).mockWorkers).toBe(4);
	});

	it('takes auto as the cores this process may use', () => {
		expect(readSettings({ MOCK_WORKERS: 'auto' }).mockWorkers).toBe(os.availableParallelism());
	});

	it.each(['0', '-1', '2.5', 'two', '257'])('refuses %s, naming the variable', (value) => {
		expect(() => readSettings({ MOCK_WORKERS: value })).toThrow(
			`MOCK_WORKERS: expected a whole number of workers from 1 to 256, or auto for one per core; "${value}" is not one`,
		);
	});
});

describe('PORTAL_MOCK_URL, PORTAL_URL and MOCK_ALLOWED_ORIGINS: where readers reach the mock', () => {
	it('defaults to the local mock on MOCK_PORT and the portal on PORTAL_PORT, so a plain build calls 127.0.0.1', () => {
		expect(readSettings({})).toMatchObject({
			mockUrl: 'http://127.0.0.1:4010',
			portalUrl: 'http://127.0.0.1:4321',
			mockAllowedOrigins: [],
		});
		expect(readSettings({ MOCK_PORT: '5010', PORTAL_PORT: '5321' })).toMatchObject({
			mockUrl: 'http://127.0.0.1:5010',
			portalUrl: 'http://127.0.0.1:5321',
		});
	});

	it.each([
		['https://mock.intranet.example', 'https://mock.intranet.example'],
		['https://mock.intranet.example/', 'https://mock.intranet.example'],
		['http://mock.intranet.example:8080', 'http://mock.intranet.example:8080'],
		['https://intranet.example/console-mock/', 'https://intranet.example/console-mock'],
		['/', '/'],
		['/console-mock/', '/console-mock'],
	])('takes %s as %s', (written, read) => {
		expect(readSettings({ PORTAL_MOCK_URL: written }).mockUrl).toBe(read);
	});

	const EXPECTED =
		"PORTAL_MOCK_URL: expected the address readers reach the mock at: an http:// or https:// origin (https://mock.intranet.example), or a path on the portal's own origin (/)";

	it.each([
		[
			'a bad scheme',
			'ftp://mock.intranet.example',
			`${EXPECTED}; "ftp://mock.intranet.example" has the scheme ftp:`,
		],
		['no scheme', 'mock.intranet.example', `${EXPECTED}; "mock.intranet.example" is not one`],
		[
			'a scheme-relative address',
			'//mock.intranet.example',
			`${EXPECTED}; "//mock.intranet.example" is not one`,
		],
		[
			'credentials',
			'https://reader:s3cret@mock.intranet.example',
			'PORTAL_MOCK_URL: expected an address without a user name or password (https://mock.intranet.example); it would be written wherever the address is shown or logged',
		],
		[
			'a query',
			'https://mock.intranet.example/?x=1',
			'PORTAL_MOCK_URL: expected an address without a query (?…) or fragment (#…)',
		],
		[
			'a fragment',
			'https://mock.intranet.example#top',
			'PORTAL_MOCK_URL: expected an address without a query (?…) or fragment (#…)',
		],
		[
			'trailing junk',
			'https://mock.intranet.example x',
			`${EXPECTED}; "https://mock.intranet.example x" has a space, backslash or control character`,
		],
		['a path with a space', '/console mock', `${EXPECTED}; "/console mock" is not a plain path`],
		['a path with ..', '/a/../b', `${EXPECTED}; "/a/../b" is not a plain path`],
	])('refuses %s in one line naming the variable', (_, written, message) => {
		expect(() => readSettings({ PORTAL_MOCK_URL: written })).toThrow(
			`Invalid environment:\n  ${message}`,
		);
	});

	it('never echoes a password it refuses', () => {
		let message = '';
		try {
			readSettings({ PORTAL_MOCK_URL: 'https://reader:s3cret@mock.intranet.example' });
		} catch (error) {
			message = error instanceof Error ? error.message : String(error);
		}
		expect(message).toContain('without a user name or password');
		expect(message).not.toContain('s3cret');
	});

	it('takes PORTAL_URL as an origin, and refuses a path or another scheme', () => {
		expect(readSettings({ PORTAL_URL: 'https://portal.intranet.example/' }).portalUrl).toBe(
			'https://portal.intranet.example',
		);
		expect(() => readSettings({ PORTAL_URL: 'https://portal.intranet.example/docs' })).toThrow(
			'PORTAL_URL: expected an origin without a path (https://portal.intranet.example), not "https://portal.intranet.example/docs"',
		);
		expect(() => readSettings({ PORTAL_URL: 'file:///srv/portal' })).toThrow(
			'PORTAL_URL: expected the origin readers reach the portal at, such as https://portal.intranet.example; "file:///srv/portal" has the scheme file:',
		);
	});

	it('reads MOCK_ALLOWED_ORIGINS as origins separated by commas, and names each bad one', () => {
		expect(
			readSettings({
				MOCK_ALLOWED_ORIGINS:
					' https://portal.intranet.example, http://portal.intranet.example:8080/ ,',
			}).mockAllowedOrigins,
		).toEqual(['https://portal.intranet.example', 'http://portal.intranet.example:8080']);
		expect(() =>
			readSettings({
				MOCK_ALLOWED_ORIGINS: 'https://portal.intranet.example/docs, portal.example',
			}),
		).toThrow(
			'Invalid environment:\n  MOCK_ALLOWED_ORIGINS: expected an origin without a path (https://portal.intranet.example), not "https://portal.intranet.example/docs"\n  MOCK_ALLOWED_ORIGINS: expected origins separated by commas (https://portal.intranet.example), each a scheme, a host and an optional port; "portal.example" is not one',
		);
	});
});

describe('PORTAL_BUILD_CACHE_DIR', () => {
	it("keeps a build's cache in Astro's usual node_modules/.astro unless told otherwise", () => {
		expect(readSettings({}).buildCacheDir).toBe(path.join(process.cwd(), 'node_modules', '.astro'));
	});

	it('gives a build the folder it names, as an absolute path, for two builds at once', () => {
		expect(readSettings({ PORTAL_BUILD_CACHE_DIR: 'scratch/cache-a' }).buildCacheDir).toBe(
			path.join(process.cwd(), 'scratch', 'cache-a'),
		);
		expect(readSettings({ PORTAL_BUILD_CACHE_DIR: '/tmp/cache-b' }).buildCacheDir).toBe(
			'/tmp/cache-b',
		);
	});
});

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

/** The settings: read from the environment a test gives, or once from process.env. */
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
			'Invalid environment:\n  MOCK_PORT: expected a TCP port number from 1 to 65535\n  MOCK_LOG: expected on or off',
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

import { describe, expect, it } from 'vitest';
import { readSettings } from '../../../src/sources/settings.ts';

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

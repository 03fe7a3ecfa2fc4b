import { describe, expect, it } from 'vitest';
import { checkSettingsAgree, settingsDisagreement } from '../../src/sources/settings-agreement.ts';

const agreeing = {
	portalUrl: 'https://portal.intranet.example',
	mockUrl: 'https://mock.intranet.example',
	portalAllowedHosts: ['portal.intranet.example'],
};

describe('settings that cannot disagree', () => {
	it('lets a team’s portal, its allowed name and an https mock build', () => {
		expect(settingsDisagreement(agreeing)).toBeUndefined();
		expect(settingsDisagreement({ ...agreeing, portalAllowedHosts: [] })).toBeUndefined();
		expect(settingsDisagreement({ ...agreeing, mockUrl: '/' })).toBeUndefined();
	});

	it('stops a build whose PORTAL_URL host is not among PORTAL_ALLOWED_HOSTS, naming both', () => {
		expect(() =>
			checkSettingsAgree({
				...agreeing,
				portalAllowedHosts: ['docs.intranet.example', 'x.example'],
			}),
		).toThrow(
			'PORTAL_URL=https://portal.intranet.example names the host portal.intranet.example, which PORTAL_ALLOWED_HOSTS=docs.intranet.example,x.example leaves out: readers of that address would get no answer',
		);
	});

	it('lets the loopback portal of a laptop build whatever names are allowed', () => {
		expect(
			settingsDisagreement({ ...agreeing, portalUrl: 'http://127.0.0.1:4321' }),
		).toBeUndefined();
		expect(
			settingsDisagreement({ ...agreeing, portalUrl: 'http://localhost:4321' }),
		).toBeUndefined();
	});

	it('stops an https portal whose mock is http on another host, which browsers block', () => {
		expect(settingsDisagreement({ ...agreeing, mockUrl: 'http://mock.intranet.example/v1' })).toBe(
			"PORTAL_MOCK_URL=http://mock.intranet.example is http, but PORTAL_URL=https://portal.intranet.example is https: readers' browsers block an https page's calls to an http mock",
		);
	});

	it('lets an https portal name a reader’s own local mock over http', () => {
		for (const mockUrl of ['http://127.0.0.1:4010', 'http://localhost:4010']) {
			expect(settingsDisagreement({ ...agreeing, mockUrl })).toBeUndefined();
		}
		expect(
			settingsDisagreement({
				...agreeing,
				portalUrl: 'http://portal.intranet.example',
				mockUrl: 'http://mock.intranet.example',
			}),
		).toBeUndefined();
	});
});

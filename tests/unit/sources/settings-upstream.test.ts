/** The mock's proxy settings: MOCK_UPSTREAM, MOCK_UPSTREAM_TIMEOUT_MS and MOCK_PROXY_ERRORS. */
import { describe, expect, it } from 'vitest';
import { readSettings } from '../../../src/sources/settings.ts';

describe('the proxy settings', () => {
	it('are off by default: no upstream, a 10 s timeout, violations passed on', () => {
		const settings = readSettings({});
		expect(settings.mockUpstream).toBeUndefined();
		expect(settings.mockUpstreamTimeoutMs).toBe(10_000);
		expect(settings.mockProxyErrors).toBe(false);
	});

	it('read a console base URL with a path, without its trailing slash', () => {
		const settings = readSettings({
			MOCK_UPSTREAM: 'https://console.intranet.example/base/',
			MOCK_UPSTREAM_TIMEOUT_MS: '2500',
			MOCK_PROXY_ERRORS: 'on',
		});
		expect(settings.mockUpstream).toBe('https://console.intranet.example/base');
		expect(settings.mockUpstreamTimeoutMs).toBe(2500);
		expect(settings.mockProxyErrors).toBe(true);
	});

	it('refuse each bad value with one line naming the variable', () => {
		expect(() =>
			readSettings({
				MOCK_UPSTREAM: 'ftp://console.example',
				MOCK_UPSTREAM_TIMEOUT_MS: '0',
				MOCK_PROXY_ERRORS: 'yes',
			}),
		).toThrow(
			[
				'Invalid environment:',
				`  MOCK_UPSTREAM: expected the console's base URL to forward to, such as https://console.intranet.example; "ftp://console.example" has the scheme ftp:`,
				'  MOCK_UPSTREAM_TIMEOUT_MS: expected a whole number of milliseconds from 1 to 600000',
				'  MOCK_PROXY_ERRORS: expected on or off',
			].join('\n'),
		);
		expect(() => readSettings({ MOCK_UPSTREAM_TIMEOUT_MS: '1e3' })).toThrow(
			'MOCK_UPSTREAM_TIMEOUT_MS: expected',
		);
		expect(() => readSettings({ MOCK_UPSTREAM: 'http://console.example/?a=1' })).toThrow(
			'MOCK_UPSTREAM: expected an address without a query',
		);
	});
});

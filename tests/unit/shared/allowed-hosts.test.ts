import { describe, expect, it } from 'vitest';
import { hostAllowed, requestedHost } from '../../../src/shared/allowed-hosts.ts';

const rule = { port: 4010, names: ['portal.intranet.example'] };

describe('the Host a server answers under, as Vite’s server.allowedHosts', () => {
	it.each([
		'127.0.0.1:4010',
		'localhost:4010',
		'LOCALHOST:4010',
		'[::1]:4010',
		'127.0.0.1',
		'portal.intranet.example',
		'portal.intranet.example:8443',
		'Portal.Intranet.Example',
	])('answers %s', (host) => {
		expect(hostAllowed(host, rule)).toBe(true);
	});

	it.each([
		undefined,
		'',
		'attacker.example',
		'attacker.example:4010',
		'127.0.0.1.attacker.example',
		'127.0.0.1.attacker.example:4010',
		'localhost.attacker.example',
		'203.0.113.9:4010',
		'127.0.0.2:4010',
		'127.0.0.1:4011',
		'localhost:80',
		'127.0.0.1:4010, attacker.example',
		'127.0.0.1:4010 ',
		'user@127.0.0.1:4010',
		'intranet.example',
		'x.portal.intranet.example',
	])('refuses %s', (host) => {
		expect(hostAllowed(host, rule)).toBe(false);
	});

	it('reads two Host headers as one value no name matches', () => {
		expect(requestedHost('/', ['127.0.0.1:4010', 'attacker.example'])).toBe(
			'127.0.0.1:4010, attacker.example',
		);
	});

	it('reads the host of an absolute-form target, not the Host header (RFC 9112, 3.2.2)', () => {
		expect(requestedHost('http://attacker.example/api/v2/users', ['127.0.0.1:4010'])).toBe(
			'attacker.example',
		);
		expect(requestedHost('HTTP://localhost:4010/', ['attacker.example'])).toBe('localhost:4010');
		expect(requestedHost('/api/v2/users', ['localhost:4010'])).toBe('localhost:4010');
		expect(requestedHost('/', [])).toBeUndefined();
	});
});

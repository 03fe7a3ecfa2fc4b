/** The mock's request log: what a developer reads in the terminal, one line per request. */
import { describe, expect, it } from 'vitest';
import { isoTime, logLine } from '../../../mock/request-log.ts';

const time = new Date('2026-11-21T09:30:00.123Z');

describe('logLine', () => {
	it('prints time, method, path, status, duration, and the view and user of the key', () => {
		expect(
			logLine({
				time,
				method: 'GET',
				target: '/api/v2/users',
				status: 200,
				durationMs: 1.26,
				holder: { slug: 'production', name: 'Amara Okafor', role: 'admin' },
			}),
		).toBe(
			'2026-11-21T09:30:00.123Z GET /api/v2/users 200 1.3ms view=production user="Amara Okafor" role=admin',
		);
	});

	it('says why a request was refused, and which controls it carried', () => {
		expect(
			logLine({
				time,
				method: 'GET',
				target: '/api/v2/users?__code=401',
				status: 401,
				durationMs: 0.4,
				refused: "the key is in no view's directory",
				controls: '__code=401',
			}),
		).toBe(
			`2026-11-21T09:30:00.123Z GET /api/v2/users?__code=401 401 0.4ms refused="the key is in no view's directory" controls="__code=401"`,
		);
	});

	it('says in one quoted field why the mock failed, a line break included', () => {
		expect(
			logLine({
				time,
				method: 'GET',
				target: '/api/v2/users',
				status: 500,
				durationMs: 3.1,
				failed: 'SyntaxError: Invalid group\nat ick-4f1c9a07-Qx7m',
			}),
		).toBe(
			'2026-11-21T09:30:00.123Z GET /api/v2/users 500 3.1ms failed="SyntaxError: Invalid group?at <key>"',
		);
	});

	it('never prints a key, wherever it was sent', () => {
		const line = logLine({
			time,
			method: 'GET',
			target: '/api/v2/users?token=ick-4f1c9a07-Qx7m&x=abc-0123abcd-ZZ99',
			status: 401,
			durationMs: 0,
			refused: 'a reason naming ick-4f1c9a07-Qx7m',
			controls: 'Prefer: example=ick-4f1c9a07-Qx7m',
		});
		expect(line).not.toMatch(/4f1c9a07|0123abcd/);
		expect(line).toContain('token=<key>&x=<key>');
	});

	it.each([
		['percent-encoded dashes', '/api/v2/users?access_token=ick%2D4f1c9a07%2DQx7m'],
		[
			'every character encoded',
			`/api/v2/users?t=${[...'ick-4f1c9a07-Qx7m'].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}`,
		],
		['encoded twice', '/api/v2/users?t=ick%252D4f1c9a07%252DQx7m'],
		['in the path', '/api/v2/users/ick%2D4f1c9a07%2DQx7m'],
	])('never prints a key sent with %s', (_case, target) => {
		const line = logLine({ time, method: 'GET', target, status: 401, durationMs: 0 });
		expect(line).not.toMatch(/4f1c9a07/i);
		expect(line).not.toMatch(/%34%66%31%63/i);
		expect(line).toContain('<key>');
	});

	it('keeps an ordinary encoded target as it was sent', () => {
		const line = logLine({
			time,
			method: 'GET',
			target: '/a%20b?q=x%2Fy',
			status: 404,
			durationMs: 0,
		});
		expect(line).toContain(' /a%20b?q=x%2Fy ');
	});

	it('keeps a hostile request on one printable line', () => {
		const line = logLine({
			time,
			method: 'GET',
			target: `/x\r\nINJECTED${'a'.repeat(500)}`,
			status: 404,
			durationMs: 0,
			holder: { slug: 'v', name: 'Eve "\n" Quote\\', role: 'viewer' },
		});
		expect(line).not.toMatch(/[\r\n]/);
		expect(line).toContain('/x??INJECTED');
		expect(line).toContain('…');
		expect(line).toContain('user="Eve \\"?\\" Quote\\\\"');
		expect(line.length).toBeLessThan(300);
	});
});

describe('isoTime', () => {
	it('writes a time as toISOString does, to the millisecond, as the seconds change', () => {
		const at = (text: string): number => Date.parse(text);
		expect(isoTime(at('2026-11-21T09:30:00.123Z'))).toBe('2026-11-21T09:30:00.123Z');
		expect(isoTime(at('2026-11-21T09:30:00.999Z'))).toBe('2026-11-21T09:30:00.999Z');
		expect(isoTime(at('2026-11-21T09:30:01.005Z'))).toBe('2026-11-21T09:30:01.005Z');
		expect(isoTime(at('2026-11-21T09:30:01.040Z'))).toBe('2026-11-21T09:30:01.040Z');
		// Back to an earlier second, as a clock set back would be.
		expect(isoTime(at('2026-11-21T09:29:59.000Z'))).toBe('2026-11-21T09:29:59.000Z');
		expect(isoTime(at('2026-12-31T23:59:59.999Z'))).toBe('2026-12-31T23:59:59.999Z');
		expect(isoTime(at('2027-01-01T00:00:00.000Z'))).toBe('2027-01-01T00:00:00.000Z');
	});
});

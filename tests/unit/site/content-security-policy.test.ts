/**
 * The CSP every built page carries: no inline script runs but those whose hash it lists, no
 * inline style at all, and pages connect only to themselves and the mock.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
	baseDirectives,
	contentSecurityPolicy,
	pagePolicy,
} from '../../../src/site/content-security-policy.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const THEME = 'document.documentElement.dataset.theme = "dark";';
const CONNECT = ["'self'", 'http://127.0.0.1:4010', 'http://localhost:4010'];

describe("a built page's Content-Security-Policy", () => {
	it('allows the inline scripts it is given by hash, no inline style, and the mock to be reached', () => {
		expect(contentSecurityPolicy([THEME], CONNECT)).toBe(
			"default-src 'self';connect-src 'self' http://127.0.0.1:4010 http://localhost:4010;img-src 'self' data:;object-src 'none';base-uri 'self';form-action 'self'; " +
				`script-src 'self' 'wasm-unsafe-eval' ${hash(THEME)}; style-src 'self';`,
		);
	});

	it('lists a script given twice once, and none when a page has no inline script', () => {
		expect(contentSecurityPolicy([THEME, THEME], CONNECT)).toContain(
			`script-src 'self' 'wasm-unsafe-eval' ${hash(THEME)};`,
		);
		expect(contentSecurityPolicy([], CONNECT)).toContain("script-src 'self' 'wasm-unsafe-eval';");
	});

	it("names this build's mock in connect-src, and gives every page with the same scripts the same policy", () => {
		const policy = pagePolicy([THEME]);
		expect(policy).toContain(`${baseDirectives(["'self'"])[0] ?? ''};connect-src 'self' `);
		expect(policy).toContain(hash(THEME));
		expect(pagePolicy([THEME])).toBe(policy);
		expect(pagePolicy([])).not.toContain(hash(THEME));
	});
});

/**
 * The Content-Security-Policy of every built page, which BaseLayout writes as a <meta> at the end
 * of its <head>, where Astro's own CSP (`security.csp`) wrote it: no 'unsafe-inline'; script-src
 * lists the hashes of the page's inline scripts (the theme script, the only one a page holds) and
 * style-src none (no page has an inline style). Astro's CSP hashed each page's stylesheet and
 * script links again as it rendered the page, and the hashes it listed that no page used were
 * then taken out of every page by a middleware that read and rewrote it: about a tenth of a
 * build's CPU at 1,000 views, for the same <meta>. The policy is worked out once per build.
 */
import { createHash } from 'node:crypto';
import { mockConnectSources } from '../shared/urls.ts';
import { mockPlace } from './mock-place.ts';

/** `sha256-<base64>` of a script's exact text, as a CSP hash source (without the quotes). */
export function cspHash(source: string): `sha256-${string}` {
	return `sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}`;
}

/** The policy's directives besides script-src and style-src, for a mock reached at `connect`. */
export function baseDirectives(connect: readonly string[]): string[] {
	return [
		"default-src 'self'",
		// Search fetches its index from 'self'; the try-it panel calls the mock readers reach
		// (PORTAL_MOCK_URL: 'self' when it is on the portal's origin) or a reader's own local mock.
		`connect-src ${connect.join(' ')}`,
		"img-src 'self' data:",
		"object-src 'none'",
		"base-uri 'self'",
		"form-action 'self'",
	];
}

/** Where scripts may come from: the portal, and Pagefind's engine compiled from WebAssembly. */
const SCRIPT_SOURCES = ["'self'", "'wasm-unsafe-eval'"];

/**
 * The policy of a page whose inline scripts are `inlineScripts`, written as Astro wrote it (its
 * directives joined by `;`, then script-src and style-src), given the mock's `connect` sources.
 */
export function contentSecurityPolicy(
	inlineScripts: readonly string[],
	connect: readonly string[],
): string {
	const hashes = [...new Set(inlineScripts.map((script) => `'${cspHash(script)}'`))];
	return `${baseDirectives(connect).join(';')}; script-src ${[...SCRIPT_SOURCES, ...hashes].join(' ')}; style-src 'self';`;
}

/** The policies worked out in this build, by the inline scripts they allow. */
const policies = new Map<string, string>();

/** The policy of a built page holding `inlineScripts`, for this build's mock; once per build. */
export function pagePolicy(inlineScripts: readonly string[]): string {
	const key = JSON.stringify(inlineScripts);
	let policy = policies.get(key);
	if (policy === undefined) {
		policy = contentSecurityPolicy(inlineScripts, mockConnectSources(mockPlace()));
		policies.set(key, policy);
	}
	return policy;
}

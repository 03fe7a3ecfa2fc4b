/**
 * Astro's CSP lists in every page's script-src the hashes of every script it could inline on any
 * page: besides the theme script, the island loader and the five client directives, which only a
 * page with a hydrated component carries, and the portal has none. Its style-src likewise lists
 * the islands' styles and the build's stylesheet files, which load from 'self'. Those unused
 * hashes cost a view page about 380 B of gzip. As each page is rendered, this keeps in its
 * script-src and style-src only the hashes of the inline scripts and styles that page holds, and
 * every other source as it was, so no page allows anything it did not allow before.
 */
import { createHash } from 'node:crypto';
import type { AstroIntegration } from 'astro';

const POLICY = /(<meta http-equiv="content-security-policy" content=")([^"]*)(")/;
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)(?:\s[^>]*)?>([\s\S]*?)<\/script>/g;
const INLINE_STYLE = /<style(?:\s[^>]*)?>([\s\S]*?)<\/style>/g;
const HASH_SOURCE = /^'sha(256|384|512)-[^']*'$/;

/** The `'sha256-…'` sources of a page's inline scripts (or styles), as CSP writes them. */
export function inlineHashes(html: string, element: RegExp = INLINE_SCRIPT): Set<string> {
	return new Set(
		[...html.matchAll(element)].map(
			([, text = '']) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`,
		),
	);
}

/** The policy with a directive's hash sources kept only where they are in `kept`. */
export function keepHashes(
	policy: string,
	directiveName: 'script-src' | 'style-src',
	kept: ReadonlySet<string>,
): string {
	return policy
		.split(';')
		.map((directive) => {
			const [name = '', ...sources] = directive.trim().split(/\s+/);
			if (name !== directiveName) return directive;
			const left = sources.filter((source) => !HASH_SOURCE.test(source) || kept.has(source));
			return `${directive.slice(0, directive.indexOf(name))}${[name, ...left].join(' ')}`;
		})
		.join(';');
}

/** A page with only its own inline scripts' and styles' hashes in its CSP <meta>. */
export function ownHashesOnly(html: string): string {
	const match = POLICY.exec(html);
	if (!match?.[2]) return html;
	const policy = keepHashes(
		keepHashes(match[2], 'script-src', inlineHashes(html)),
		'style-src',
		inlineHashes(html, INLINE_STYLE),
	);
	if (policy === match[2]) return html;
	return html.replace(POLICY, (_, open: string, __, close: string) => open + policy + close);
}

/**
 * Keeps in each page's CSP <meta> only the hashes of that page's inline scripts and styles, as
 * the page is rendered (csp-own-hashes.ts, a middleware run after any other), so a build writes
 * each page once and does not read and write every page again at its end.
 */
export function cspScriptHashes(): AstroIntegration {
	return {
		name: 'console-portal:csp-script-hashes',
		hooks: {
			'astro:config:setup': ({ addMiddleware }) => {
				addMiddleware({
					entrypoint: new URL('./csp-own-hashes.ts', import.meta.url),
					order: 'post',
				});
			},
		},
	};
}

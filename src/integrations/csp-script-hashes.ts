/**
 * Astro's CSP lists in every page's script-src the hashes of every script it could inline on any
 * page: besides the theme script, the island loader and the five client directives, which only a
 * page with a hydrated component carries, and the portal has none. Its style-src likewise lists
 * the islands' styles and the build's stylesheet files, which load from 'self'. Those unused
 * hashes cost a view page about 380 B of gzip. After the build, this keeps in each page's
 * script-src and style-src only the hashes of the inline scripts and styles that page holds, and
 * every other source as it was, so no page allows anything it did not allow before.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
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

/** Keeps in each built page's CSP <meta> only the hashes of that page's inline scripts and styles. */
export function cspScriptHashes(): AstroIntegration {
	return {
		name: 'console-portal:csp-script-hashes',
		hooks: {
			'astro:build:done': async ({ dir, logger }) => {
				const root = fileURLToPath(dir);
				const pages = (await readdir(root, { withFileTypes: true, recursive: true }))
					.filter((entry) => entry.isFile() && entry.name.endsWith('.html'))
					.map((entry) => path.join(entry.parentPath, entry.name));
				let changed = 0;
				const rewrite = async (file: string): Promise<void> => {
					const html = await readFile(file, 'utf8');
					const match = POLICY.exec(html);
					if (!match?.[2]) return;
					const policy = keepHashes(
						keepHashes(match[2], 'script-src', inlineHashes(html)),
						'style-src',
						inlineHashes(html, INLINE_STYLE),
					);
					if (policy === match[2]) return;
					await writeFile(
						file,
						html.replace(POLICY, (_, open: string, __, close: string) => open + policy + close),
					);
					changed += 1;
				};
				// A few pages at a time: a large portal has tens of thousands.
				for (let start = 0; start < pages.length; start += 16)
					await Promise.all(pages.slice(start, start + 16).map(rewrite));
				logger.info(
					`Kept only their own inline scripts' and styles' hashes in ${changed} pages' CSP`,
				);
			},
		},
	};
}

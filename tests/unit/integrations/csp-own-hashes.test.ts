/**
 * Each page's CSP keeps only the hashes of its own inline scripts and styles, as the page is
 * rendered: a page allows nothing it did not allow before, and no answer but an HTML page changes.
 */
import { createHash } from 'node:crypto';
import type { APIContext } from 'astro';
import { describe, expect, it } from 'vitest';
import { onRequest } from '../../../src/integrations/csp-own-hashes.ts';
import { ownHashesOnly } from '../../../src/integrations/csp-script-hashes.ts';

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;
const THEME = 'document.documentElement.dataset.theme = "dark";';
const STYLE = '.a{color:red}';
const policy = [
	"default-src 'self'",
	`script-src 'self' 'wasm-unsafe-eval' ${hash(THEME)} ${hash('island loader')}`,
	`style-src 'self' ${hash(STYLE)} ${hash('')}`,
].join('; ');
const page = `<!doctype html><html><head><meta http-equiv="content-security-policy" content="${policy}"><script>${THEME}</script><style>${STYLE}</style></head><body>Production</body></html>`;

/** The middleware's answer to a page answered by `answer`. */
async function throughMiddleware(answer: Response): Promise<Response> {
	const result = await onRequest({} as APIContext, () => Promise.resolve(answer));
	if (!(result instanceof Response)) throw new Error('expected an answer');
	return result;
}

describe("each page's CSP, its own hashes only", () => {
	it("keeps the page's own inline script and style hashes and every other source, drops the rest", () => {
		const kept = ownHashesOnly(page);
		expect(kept).toContain(
			`script-src 'self' 'wasm-unsafe-eval' ${hash(THEME)}; style-src 'self' ${hash(STYLE)}"`,
		);
		expect(kept).not.toContain(hash('island loader'));
		expect(kept.replace(/content="[^"]*"/, '')).toBe(page.replace(/content="[^"]*"/, ''));
		expect(ownHashesOnly(kept)).toBe(kept);
		expect(ownHashesOnly('<p>No policy</p>')).toBe('<p>No policy</p>');
	});

	it('rewrites an HTML page as it is rendered, with its status and headers', async () => {
		const answer = await throughMiddleware(
			new Response(page, {
				status: 404,
				headers: {
					'content-type': 'text/html; charset=utf-8',
					'content-length': String(page.length),
					'x-portal': 'kept',
				},
			}),
		);
		expect(answer.status).toBe(404);
		expect(answer.headers.get('x-portal')).toBe('kept');
		expect(answer.headers.get('content-length')).toBeNull();
		expect(await answer.text()).toBe(ownHashesOnly(page));
	});

	it('passes a Markdown twin, a file or a redirect on untouched', async () => {
		const twin = new Response(page, { headers: { 'content-type': 'text/markdown' } });
		expect(await throughMiddleware(twin)).toBe(twin);
		const redirect = new Response(null, { status: 301, headers: { location: '/views/' } });
		expect(await throughMiddleware(redirect)).toBe(redirect);
	});
});

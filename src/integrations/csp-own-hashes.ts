/**
 * The middleware csp-script-hashes.ts adds: each HTML page, as it is rendered, keeps in its CSP
 * <meta> only the hashes of its own inline scripts and styles. Any other answer (a twin, a file,
 * a redirect) goes out as it came.
 */
import type { MiddlewareHandler } from 'astro';
import { ownHashesOnly } from './csp-script-hashes.ts';

/** Rewrites an HTML page's CSP <meta>; passes every other answer on untouched. */
export const onRequest: MiddlewareHandler = async (_context, next) => {
	const response = await next();
	if (!response.body || !response.headers.get('content-type')?.startsWith('text/html')) {
		return response;
	}
	const html = await response.text();
	const headers = new Headers(response.headers);
	// The page may be shorter now: its length is worked out again from the body.
	headers.delete('content-length');
	return new Response(ownHashesOnly(html), {
		status: response.status,
		statusText: response.statusText,
		headers,
	});
};

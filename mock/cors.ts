/**
 * The mock's CORS policy: pages from http://127.0.0.1, http://localhost or http://[::1] on any
 * port, and from the origins named in MOCK_ALLOWED_ORIGINS (a team's portal on its own name), may
 * call the mock with an Authorization header; other origins get no CORS headers, so a site open
 * in the reader's browser cannot read the directory through the mock.
 */

/** The response headers a page on another port may read (beyond the CORS-safelisted ones). */
export const EXPOSED_HEADERS = [
	'WWW-Authenticate',
	'Allow',
	'Content-Type',
	'Content-Length',
	'Date',
];

/** The request headers a page may send. `*` would not cover Authorization, so it is named. */
export const ALLOWED_HEADERS = ['Authorization', 'Accept', 'Content-Type', 'Prefer'];

/** The methods a page may use; QUERY too when the contract has one (`pageMethods`). */
export const ALLOWED_METHODS = ['GET', 'HEAD'];

/** Origins on this machine: http on 127.0.0.1, localhost or [::1], any port. Others get no CORS. */
const LOCAL_ORIGIN = /^http:\/\/(?:127\.0\.0\.1|localhost|\[::1\])(?::\d{1,5})?$/;

/** Whether pages from an origin may read the mock's answers: a local one, or one allowed by name. */
export function mayCall(
	origin: string | undefined,
	allowed: readonly string[] = [],
): origin is string {
	return origin !== undefined && (LOCAL_ORIGIN.test(origin) || allowed.includes(origin));
}

/** The CORS headers of an answer to a request from `origin`, with the origins allowed beyond local ones. */
export function corsHeaders(
	origin: string | undefined,
	allowed: readonly string[] = [],
): Record<string, string> {
	return mayCall(origin, allowed)
		? {
				'Access-Control-Allow-Origin': origin,
				'Access-Control-Expose-Headers': EXPOSED_HEADERS.join(', '),
				Vary: 'Origin',
			}
		: { Vary: 'Origin' };
}

/** The extra headers of a preflight answer; none for an origin that may not call the mock. */
export function preflightHeaders(
	origin: string | undefined,
	allowed: readonly string[] = [],
	methods: readonly string[] = ALLOWED_METHODS,
): Record<string, string> {
	return mayCall(origin, allowed)
		? {
				'Access-Control-Allow-Methods': methods.join(', '),
				'Access-Control-Allow-Headers': ALLOWED_HEADERS.join(', '),
				'Access-Control-Max-Age': '600',
			}
		: {};
}

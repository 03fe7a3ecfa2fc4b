/**
 * `npm run dev` answers only the names the portal is served under, with the same check as the
 * `npm start` server and the mock (`src/shared/allowed-hosts.ts`), after Vite's own, which lets
 * any IP address and repeated Host headers through.
 */
import type { AstroIntegration } from 'astro';
import { hostAllowed, quotedHost, requestedHost } from '../shared/allowed-hosts.ts';

/** Refuses, with a short 403, a dev-server request for a name not in `names` nor loopback. */
export function allowedHosts(names: readonly string[]): AstroIntegration {
	return {
		name: 'console-portal:allowed-hosts',
		hooks: {
			'astro:server:setup': ({ server }) => {
				server.middlewares.use((request, response, next) => {
					const headers = request.rawHeaders.filter(
						(_, index, raw) => index % 2 === 1 && /^host$/i.test(raw[index - 1] ?? ''),
					);
					const named = requestedHost(request.url ?? '/', headers);
					if (hostAllowed(named, { port: request.socket.localPort ?? 0, names })) {
						next();
						return;
					}
					response.statusCode = 403;
					response.setHeader('Content-Type', 'text/plain; charset=utf-8');
					response.end(
						`Forbidden: the portal is not served under ${quotedHost(named)}. To serve it under another name, add it to PORTAL_ALLOWED_HOSTS (comma-separated names).\n`,
					);
				});
			},
		},
	};
}

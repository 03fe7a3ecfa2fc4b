/**
 * The try-it panel's server address in its normal form, checked before the panel uses a typed or
 * remembered value. Kept small and apart from `exchange.ts`, because the page loads it eagerly;
 * the messages that say what is wrong with an address live in `exchange.ts`.
 */

/** Where the browser remembers the try-it server between pages (localStorage). */
export const SERVER_STORAGE_KEY = 'console-portal.try-it.server';

/** The longest server address the panel accepts. */
export const MAX_SERVER_LENGTH = 2048;

/** An http(s) address without credentials, query or fragment, without trailing slash; else undefined. */
export function normalServer(text: string): string | undefined {
	const value = text.trim();
	if (!value || value.length > MAX_SERVER_LENGTH || /[?#]/.test(value)) return undefined;
	try {
		const url = new URL(value);
		if (!/^https?:$/.test(url.protocol) || url.username || url.password) return undefined;
		return url.origin + url.pathname.replace(/\/+$/, '');
	} catch {
		// new URL throws only for text that is no URL: no server, and the field says why.
		return undefined;
	}
}

/**
 * The panel's default server from its `data-default-server`: an address as it is, or a path (a mock
 * on the portal's own origin, `PORTAL_MOCK_URL=/`) resolved on the origin the page was read from,
 * so the panel calls its own origin under whatever name the portal is served. Undefined when
 * neither.
 */
export const defaultServer = (written: string, page: string): string | undefined =>
	normalServer(new URL(written, page).href);

/** The server the panel starts with: the remembered one when it is an address, else the default. */
export function rememberedServer(stored: unknown, fallback: string): string {
	return (typeof stored === 'string' && normalServer(stored)) || fallback;
}

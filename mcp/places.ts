/**
 * Where the MCP server may go, from the settings: the mocks `call_mock` may send a person's key to
 * (the local mock on MOCK_PORT, the mock the portal names in PORTAL_MOCK_URL, and the addresses
 * MCP_ALLOWED_MOCKS lists), and the origins `read_page` takes as the portal's own (PORTAL_URL,
 * and this machine's on PORTAL_PORT). Anything else is refused before a request is made.
 */
import { localMockUrl, shownMockUrl } from '../src/shared/urls.ts';
import type { PortalSettings } from '../src/sources/settings.ts';

/** The setting that lists the other mocks `call_mock` may call. */
export const ALLOWED_MOCKS_SETTING = 'MCP_ALLOWED_MOCKS';

/** The mocks `call_mock` may send a key to, each an http(s) address without a trailing slash. */
export interface MockAddresses {
	/** The mock the portal names: the local one, and PORTAL_MOCK_URL's when it names another. */
	portal: readonly string[];
	/** The addresses MCP_ALLOWED_MOCKS lists. */
	listed: readonly string[];
}

/** An address as it is compared: its origin and its path, without a trailing slash. */
function comparable(url: URL): string {
	return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

/** The mocks the settings let `call_mock` send a key to. */
export function mockAddresses(
	settings: Pick<PortalSettings, 'mockUrl' | 'portalUrl' | 'mockPort' | 'mcpAllowedMocks'>,
): MockAddresses {
	const local = localMockUrl(settings.mockPort);
	const named = shownMockUrl(settings);
	const portal = [local, `http://localhost:${settings.mockPort}`];
	if (!portal.includes(named)) portal.push(named);
	return { portal, listed: settings.mcpAllowedMocks };
}

/** Whether a base address is one of the mocks, or under one of them. */
export function mayCall(mocks: MockAddresses, base: URL): boolean {
	const wanted = comparable(base);
	return [...mocks.portal, ...mocks.listed].some((address) => {
		const allowed = comparable(new URL(address));
		return wanted === allowed || wanted.startsWith(`${allowed}/`);
	});
}

/** The refusal of a base address: which mocks are called, and the setting that lists more. */
export function refusal(mocks: MockAddresses, baseUrl: string): string {
	const listed = mocks.listed.length > 0 ? mocks.listed.join(', ') : 'none';
	return `baseUrl "${baseUrl}": not called; call_mock sends a person's key only to the portal's mock (${mocks.portal.join(', ')}) and to the mocks ${ALLOWED_MOCKS_SETTING} lists (${listed}); to call this one, add it to ${ALLOWED_MOCKS_SETTING} in the MCP server's environment`;
}

/** The origins `read_page` reads as the portal's: PORTAL_URL's, and this machine's on PORTAL_PORT. */
export function portalOrigins(
	settings: Pick<PortalSettings, 'portalUrl' | 'portalPort'>,
): string[] {
	const origins = [
		new URL(settings.portalUrl).origin,
		`http://127.0.0.1:${settings.portalPort}`,
		`http://localhost:${settings.portalPort}`,
	];
	return [...new Set(origins)];
}

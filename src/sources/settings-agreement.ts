/**
 * Settings that cannot disagree: the portal's public address (PORTAL_URL), the names it answers
 * under (PORTAL_ALLOWED_HOSTS) and the mock readers' browsers call (PORTAL_MOCK_URL). A build given
 * settings that disagree stops with one line naming both values, as the web image's start does
 * (deploy/web-image/settings.sh).
 */
import type { PortalSettings } from './settings.ts';

/** Host names a portal server always answers under, whatever PORTAL_ALLOWED_HOSTS says. */
const LOOPBACK_NAMES = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The settings the check reads. */
export type AgreementSettings = Pick<
	PortalSettings,
	'portalUrl' | 'mockUrl' | 'portalAllowedHosts'
>;

/** Returns the one line saying how two settings disagree, or undefined when they agree. */
export function settingsDisagreement(settings: AgreementSettings): string | undefined {
	const portal = new URL(settings.portalUrl);
	const allowed = settings.portalAllowedHosts;
	if (
		allowed.length > 0 &&
		!LOOPBACK_NAMES.has(portal.hostname) &&
		!allowed.includes(portal.hostname)
	) {
		return `PORTAL_URL=${settings.portalUrl} names the host ${portal.hostname}, which PORTAL_ALLOWED_HOSTS=${allowed.join(',')} leaves out: readers of that address would get no answer`;
	}
	if (settings.mockUrl.startsWith('/')) return undefined;
	const mock = new URL(settings.mockUrl);
	const loopbackMock = mock.hostname === '127.0.0.1' || mock.hostname === 'localhost';
	if (portal.protocol === 'https:' && mock.protocol === 'http:' && !loopbackMock) {
		return `PORTAL_MOCK_URL=${mock.origin} is http, but PORTAL_URL=${settings.portalUrl} is https: readers' browsers block an https page's calls to an http mock`;
	}
	return undefined;
}

/** Throws the one line of settingsDisagreement, for a caller that reports errors itself. */
export function checkSettingsAgree(settings: AgreementSettings): void {
	const disagreement = settingsDisagreement(settings);
	if (disagreement) throw new Error(disagreement);
}

/** Stops the process with the one line of settingsDisagreement on stderr (a build, no stack trace). */
export function stopOnDisagreement(settings: AgreementSettings): void {
	const disagreement = settingsDisagreement(settings);
	if (!disagreement) return;
	process.stderr.write(`${disagreement}\n`);
	process.exit(1);
}

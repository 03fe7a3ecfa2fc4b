/**
 * The names our servers answer under, as Vite's `server.allowedHosts`: a page a reader opens
 * can point its own name at 127.0.0.1 (DNS rebinding), so a server that answers any `Host`
 * hands that page every key. The mock and the portal servers answer 127.0.0.1, localhost and
 * [::1] with their port, and the names added through PORTAL_ALLOWED_HOSTS or MOCK_ALLOWED_HOSTS.
 */

/** The names every server of ours answers under, with its port or none. */
export const LOOPBACK_NAMES: readonly string[] = ['127.0.0.1', 'localhost', '[::1]'];

/** What a server answers under: its port, and the names added through its setting. */
export interface HostRule {
	/** The port the server listens on. */
	port: number;
	/** Names added through the setting, lower case, answered with any port. */
	names: readonly string[];
}

/** A Host value: a name or a bracketed IPv6 address, then an optional port. */
const HOST_VALUE = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::(\d{1,5}))?$/i;

/** An absolute-form target's scheme, `http://`. */
const ABSOLUTE_FORM = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The host a request names: an absolute-form target's authority (RFC 9112, 3.2.2: the Host header
 * is then ignored), else its Host headers, joined when repeated so that two never pass.
 */
export function requestedHost(target: string, hostHeaders: readonly string[]): string | undefined {
	if (ABSOLUTE_FORM.test(target)) {
		try {
			return new URL(target).host;
		} catch {
			// new URL throws only for a target that is no URL: it names no host, which hostAllowed
			// refuses.
			return undefined;
		}
	}
	return hostHeaders.length === 0 ? undefined : hostHeaders.join(', ');
}

/** Whether a server with this rule answers a request naming this host. */
export function hostAllowed(host: string | undefined, rule: HostRule): boolean {
	const parts = host === undefined ? null : HOST_VALUE.exec(host);
	if (!parts) return false;
	const name = (parts[1] ?? '').toLowerCase();
	const port = parts[2] === undefined ? undefined : Number(parts[2]);
	if (LOOPBACK_NAMES.includes(name)) return port === undefined || port === rule.port;
	return rule.names.includes(name);
}

/** A host as a refusal quotes it: printable, and short. */
export function quotedHost(host: string | undefined): string {
	if (host === undefined) return 'no Host';
	const printable = host.replace(/[^\x20-\x7e]/g, '?');
	return `"${printable.length > 100 ? `${printable.slice(0, 100)}…` : printable}"`;
}

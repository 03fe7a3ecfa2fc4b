/**
 * Addresses in fixtures: IPv4 hosts from the documentation ranges (RFC 5737) and host names
 * under the reserved `example` names (RFC 2606), so no fixture can point at a real machine.
 */

/** The three IPv4 documentation ranges, as /24 prefixes. */
export const DOCUMENTATION_RANGES = ['192.0.2.', '198.51.100.', '203.0.113.'] as const;

/** The documentation ranges in words, for error messages. */
export const DOCUMENTATION_RANGES_TEXT = '192.0.2.0/24, 198.51.100.0/24 or 203.0.113.0/24';

/** Whether a dotted IPv4 address lies in a documentation range. */
export function isDocumentationAddress(address: string): boolean {
	const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(address);
	if (!match) return false;
	// Stryker disable next-line MethodExpression: the whole match is never over 255 (not a number) and starts with 0 and a digit only when its first octet does
	if (match.slice(1).some((octet) => Number(octet) > 255 || /^0\d/.test(octet))) return false;
	return DOCUMENTATION_RANGES.some((range) => address.startsWith(range));
}

/** Whether a host name is under a reserved example name: `*.example`, or example.com/.net/.org. */
export function isExampleHost(host: string): boolean {
	const name = host.toLowerCase();
	return (
		/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+example$/.test(name) ||
		/^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)*example\.(com|net|org)$/.test(name)
	);
}

/** The longest URL a fixture may hold: the 2,048 characters browsers and servers take at least. */
export const URL_MAX_LENGTH = 2048;

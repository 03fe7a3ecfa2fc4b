/** The Content-Security-Policy source that lets one inline script run: its SHA-256 hash. */
import { createHash } from 'node:crypto';

/** `sha256-<base64>` of a script's exact text, as a CSP hash source (without the quotes). */
export function cspHash(source: string): `sha256-${string}` {
	return `sha256-${createHash('sha256').update(source, 'utf8').digest('base64')}`;
}

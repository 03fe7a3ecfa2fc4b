/**
 * A key in the forms it may be sent in besides its own: upper or lower case, `+` or `_` for its
 * dashes, the base64, base64url or hex of its bytes, and any of them percent-encoded any number of
 * times. The mock's request log masks them and try-it keeps no request option that holds one; both
 * find them here. Runs where the mock runs and in the browser: Web APIs only.
 */

/** What a key is replaced with where it is masked. */
export const KEY_MASK = '<key>';

/** A key of any prefix, in any case, with `-`, `+` or `_` between its parts. */
const KEY_IN_ANY_CASE = /[a-z]{2,8}[-+_][0-9a-f]{8}[-+_][a-z0-9]{4}/gi;

/** Whether a text holds a key as it is, in any case or with other dashes (`lastIndex` unused). */
const plainKeyIn = (text: string): boolean => new RegExp(KEY_IN_ANY_CASE.source, 'i').test(text);

/**
 * A run of hex long enough to hold a key's bytes: the shortest key has 16 characters, 32 digits.
 */
const HEX_RUN = /[0-9a-f]{32,}/gi;

/**
 * A run of base64 or base64url long enough to hold a key's bytes (16 bytes take 22 characters,
 * wherever in the run they start), with its padding, which is masked with it.
 */
const BASE64_RUN = /[A-Za-z0-9+/_-]{22,}={0,2}/g;

/** The base64 alphabet; base64url writes 62 and 63 as `-` and `_`. */
const SIXTETS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** The bytes of a base64 or base64url run, read from its start, one character a byte (Latin-1). */
function fromBase64(run: string): string {
	let bits = 0;
	let held = 0;
	let text = '';
	for (const character of run.replace(/=+$/, '')) {
		const sixtet = character === '-' ? 62 : character === '_' ? 63 : SIXTETS.indexOf(character);
		bits = ((bits << 6) | sixtet) & 0xfff;
		held += 6;
		if (held >= 8) {
			held -= 8;
			text += String.fromCharCode((bits >> held) & 0xff);
		}
	}
	return text;
}

/** The bytes of a hex run, read from its start in pairs, one character a byte (Latin-1). */
function fromHex(run: string): string {
	let text = '';
	for (let at = 0; at + 1 < run.length; at += 2) {
		text += String.fromCharCode(Number.parseInt(run.slice(at, at + 2), 16));
	}
	return text;
}

/**
 * Whether an encoded run holds a key once decoded, from each place its encoding may start: a run
 * glued to the text before it starts mid-way through a byte (hex) or a group of four (base64).
 */
function decodesToKey(run: string, decode: (run: string) => string, unit: number): boolean {
	for (let skip = 0; skip < unit; skip += 1) {
		if (plainKeyIn(decode(run.slice(skip)))) return true;
	}
	return false;
}

/** A text with every key in it masked, in each form it may take but percent-encoding. */
export function maskKeys(text: string): string {
	return text
		.replace(KEY_IN_ANY_CASE, KEY_MASK)
		.replace(HEX_RUN, (run) => (decodesToKey(run, fromHex, 2) ? KEY_MASK : run))
		.replace(BASE64_RUN, (run) => (decodesToKey(run, fromBase64, 4) ? KEY_MASK : run));
}

/** UTF-8 as a browser reads it: a byte sequence that is not UTF-8 becomes U+FFFD, never an error. */
const utf8 = new TextDecoder('utf-8');

/**
 * A text percent-decoded once, leniently: each well-formed escape (`%2D`, `%2d`) becomes its byte,
 * a malformed one (`%zz`, a lone `%`) stays as it is, and bytes that are not UTF-8 (`%E9`,
 * `%C0%AF`) become U+FFFD, so nothing in a text stops the decoding of the rest.
 */
function decodeOnce(text: string): string {
	if (!text.includes('%')) return text;
	return text.replace(/(?:%[0-9a-f]{2})+/gi, (run) =>
		utf8.decode(Uint8Array.from(run.slice(1).split('%'), (hex) => Number.parseInt(hex, 16))),
	);
}

/** A text percent-decoded until it stops changing: a key encoded any number of times shows. */
export function percentDecoded(text: string): string {
	let decoded = text;
	// Each round that changes the text shortens it, so this ends; the bound keeps it cheap.
	for (let round = 0; round < 64; round += 1) {
		const next = decodeOnce(decoded);
		if (next === decoded) break;
		decoded = next;
	}
	return decoded;
}

/** Whether a text holds a key in any of its forms, percent-encoded or not. */
export function holdsKey(text: string): boolean {
	const decoded = percentDecoded(text);
	return maskKeys(decoded) !== decoded || maskKeys(text) !== text;
}

/** A text's UTF-8 bytes. */
const bytesOf = (text: string): number[] => [...new TextEncoder().encode(text)];

/** The hex of a text's UTF-8 bytes, in lower case. */
function hexOf(text: string): string {
	return bytesOf(text)
		.map((byte) => byte.toString(16).padStart(2, '0'))
		.join('');
}

/** The base64 of a text's UTF-8 bytes, padded, as `btoa` writes an ASCII text's. */
function base64Of(text: string): string {
	const bytes = bytesOf(text);
	let written = '';
	for (let at = 0; at < bytes.length; at += 3) {
		const group = bytes.slice(at, at + 3);
		const bits = ((group[0] ?? 0) << 16) | ((group[1] ?? 0) << 8) | (group[2] ?? 0);
		const shown = [18, 12, 6, 0].map((shift) => SIXTETS.charAt((bits >> shift) & 63));
		written += shown
			.slice(0, group.length + 1)
			.join('')
			.padEnd(4, '=');
	}
	return written;
}

/**
 * The forms of a key that are found besides percent-encoding: as it is, upper and lower case, `+`
 * and `_` for its dashes, base64, base64url, and hex in lower and upper case.
 */
export function keyForms(key: string): string[] {
	const base64 = base64Of(key);
	return [
		key,
		key.toUpperCase(),
		key.toLowerCase(),
		key.replaceAll('-', '+'),
		key.replaceAll('-', '_'),
		base64,
		base64.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, ''),
		hexOf(key),
		hexOf(key).toUpperCase(),
	];
}

/**
 * How a person is told apart: by email, in lower case, the same way on the people pages and the
 * compare page. No imports, so the compare page's script can use it without the view schema.
 */

/** The form of an email that identifies a person: the address in lower case. */
export function emailKey(email: string): string {
	return email.trim().toLowerCase();
}

/**
 * The slug of a person's page, from their email alone: the part before `@` in lower case, letters,
 * digits, dots and hyphens kept and any other character written `_<hex>` (so no two emails share
 * a slug); an address outside example.com keeps its domain after `_40`.
 */
export function personSlug(email: string): string {
	const key = emailKey(email);
	const at = key.lastIndexOf('@');
	const encode = (text: string): string =>
		text.replace(/[^a-z0-9.-]/gu, (char) =>
			[...new TextEncoder().encode(char)].map((byte) => `_${byte.toString(16)}`).join(''),
		);
	const local = encode(at < 0 ? key : key.slice(0, at));
	const domain = at < 0 ? '' : key.slice(at + 1);
	return domain === 'example.com' || domain === '' ? local : `${local}_40${encode(domain)}`;
}

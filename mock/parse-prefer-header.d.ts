/** Prism's own reader of the Prefer header (RFC 7240); it ships no types. */
declare module 'parse-prefer-header' {
	/** Preferences by camel-cased name: a value, or `true` for a bare preference. */
	export default function parsePreferHeader(
		prefer: string | readonly string[],
	): Record<string, string | true>;
}

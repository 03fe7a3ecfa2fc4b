/**
 * What the try-it panel read of an answer, as its two halves share it: exchange.ts reads the
 * answer and fills it in, check.ts checks it against the contract. Types only, in a module of
 * their own, so that neither half imports the other.
 */

/** How reading a body ended. */
export type BodyEnding = 'complete' | 'capped' | 'timed-out' | 'broken';

/** What the check reads of an answer. */
export interface CheckedAnswer {
	status: number;
	/** The media type of the Content-Type header, lowercased, without parameters. */
	mediaType: string | undefined;
	/** The body as text, and how reading it ended. */
	text: string;
	ending: BodyEnding;
	/**
	 * The body as JSON, parsed once as it was read: `{ value }`, or `undefined` when it did not
	 * arrive whole or is not JSON (an empty body is not JSON either).
	 */
	json: { value: unknown } | undefined;
	/**
	 * The answer's headers the page may read, by lower-case name: the contract's check needs a
	 * 401's WWW-Authenticate, which the mock's CORS exposes.
	 */
	headers: Readonly<Record<string, string>>;
}

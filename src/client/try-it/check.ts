/**
 * The try-it panel's check of an answer: is the body what the contract says for its status and
 * media type (validators compiled at build time by src/integrations/try-it-validators.ts), and
 * whose directory are the users it lists. Every text comes back plain, for `textContent`.
 */
import { USERS_PATH } from '../../shared/curl.ts';
import type { CheckedAnswer } from './answer.ts';

/** One violation as a compiled validator reports it: the parts of Ajv's error object read here. */
export interface Violation {
	/** JSON Pointer to the value that is wrong, `''` for the whole body. */
	instancePath: string;
	keyword: string;
	params: Readonly<Record<string, unknown>>;
}

/** A validator compiled at build time: true when the value matches, else `errors` say why. */
export interface BodyValidator {
	(value: unknown): boolean;
	errors?: readonly Violation[] | null;
}

/** The contract's answers: status, then media type, then its validator (`null`: no schema). */
export type ContractAnswers = Readonly<
	Record<string, Readonly<Record<string, BodyValidator | null>>>
>;

/** The most violations listed; the rest are counted. */
export const MAX_LISTED_VIOLATIONS = 20;

/** What the check found: a verdict, a sentence saying it, and the violations, one line each. */
export interface ContractCheck {
	verdict: 'matches' | 'breaks' | 'unchecked';
	headline: string;
	violations: string[];
}

/** Formats in words. */
const FORMAT_WORDS: Readonly<Record<string, string>> = {
	email: 'an email address',
	'uri-reference': 'a URI reference',
	uri: 'a URI',
	uuid: 'a UUID',
	ipv4: 'an IPv4 address',
	ipv6: 'an IPv6 address',
	hostname: 'a host name',
};

/** JSON types in words, with their article. */
const TYPE_WORDS: Readonly<Record<string, string>> = {
	object: 'an object',
	array: 'an array',
	string: 'a string',
	number: 'a number',
	integer: 'an integer',
	boolean: 'true or false',
	null: 'null',
};

/** A name or value from the body, made safe to show on one line and cut when long. */
function shown(text: string, cap = 60): string {
	// eslint-disable-next-line no-control-regex -- control characters are exactly what this removes
	const clean = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
	return clean.length > cap ? `${clean.slice(0, cap)}…` : clean;
}

/** A value of the contract as it reads in a sentence: strings bare, others as JSON. */
function word(value: unknown): string {
	return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A pointer one step deeper, the step escaped as JSON Pointer asks (`~0`, `~1`). */
function child(pointer: string, name: unknown): string {
	return `${pointer}/${shown(String(name).replaceAll('~', '~0').replaceAll('/', '~1'))}`;
}

/** `N characters`, `1 character`. */
function count(amount: unknown, noun: string): string {
	return `${word(amount)} ${noun}${amount === 1 ? '' : 's'}`;
}

/** One violation as the panel lists it: `/users/3/role: must be one of admin, deployer, …`. */
export function describeViolation({ instancePath, keyword, params }: Violation): string {
	const at = (pointer: string): string => (pointer === '' ? '(the body)' : shown(pointer, 120));
	switch (keyword) {
		case 'required':
			return `${at(child(instancePath, params['missingProperty']))}: is required but missing`;
		case 'additionalProperties':
			return `${at(child(instancePath, params['additionalProperty']))}: is not in the contract`;
		case 'enum': {
			const allowed = Array.isArray(params['allowedValues']) ? params['allowedValues'] : [];
			return `${at(instancePath)}: must be one of ${allowed.map(word).join(', ')}`;
		}
		case 'const':
			return `${at(instancePath)}: must be ${word(params['allowedValue'])}`;
		case 'type': {
			const types = String(params['type']).split(',');
			return `${at(instancePath)}: must be ${types.map((type) => TYPE_WORDS[type] ?? type).join(' or ')}`;
		}
		case 'format': {
			const format = String(params['format']);
			return `${at(instancePath)}: must be ${FORMAT_WORDS[format] ?? `in the format ${format}`}`;
		}
		case 'minLength':
			return params['limit'] === 1
				? `${at(instancePath)}: must not be empty`
				: `${at(instancePath)}: must be at least ${count(params['limit'], 'character')} long`;
		case 'maxLength':
			return `${at(instancePath)}: must be at most ${count(params['limit'], 'character')} long`;
		case 'minItems':
			return `${at(instancePath)}: must hold at least ${count(params['limit'], 'item')}`;
		case 'maxItems':
			return `${at(instancePath)}: must hold at most ${count(params['limit'], 'item')}`;
		case 'minimum':
		case 'maximum':
		case 'exclusiveMinimum':
		case 'exclusiveMaximum':
			return `${at(instancePath)}: must be ${word(params['comparison'])} ${word(params['limit'])}`;
		case 'pattern':
			return `${at(instancePath)}: must match the pattern ${word(params['pattern'])}`;
		default:
			return `${at(instancePath)}: breaks the contract's ${keyword} rule`;
	}
}

/** The contract's answers for a status: its own, else its range (`4XX`), else `default`. */
function answersFor(answers: ContractAnswers, status: number) {
	return answers[String(status)] ?? answers[`${String(status)[0]}XX`] ?? answers['default'];
}

/** Checks an answer against the contract's schema for its status and media type. */
export function checkAnswer(answer: CheckedAnswer, answers: ContractAnswers): ContractCheck {
	const { status, mediaType } = answer;
	const bodies = answersFor(answers, status);
	const breaks = (headline: string): ContractCheck => ({
		verdict: 'breaks',
		headline,
		violations: [],
	});
	if (!bodies) {
		const listed = Object.keys(answers).join(', ');
		return breaks(
			`The contract has no ${status} answer for GET ${USERS_PATH}; it lists ${listed}.`,
		);
	}
	const types = Object.keys(bodies);
	if (types.length === 0) {
		return answer.text === ''
			? {
					verdict: 'matches',
					headline: `No body, as the contract's ${status} answer says.`,
					violations: [],
				}
			: breaks(`The contract's ${status} answer has no body, but this one has.`);
	}
	const expected = types.join(' or ');
	if (mediaType === undefined) {
		return breaks(
			`The answer has no Content-Type; the contract's ${status} answer is ${expected}.`,
		);
	}
	// Own keys only: a media type such as `constructor` must not find Object's own function.
	const validator = Object.hasOwn(bodies, mediaType) ? bodies[mediaType] : undefined;
	if (validator === undefined) {
		return breaks(
			`The answer is ${shown(mediaType)}; the contract's ${status} answer is ${expected}.`,
		);
	}
	const what = `${status} ${mediaType}`;
	if (answer.ending !== 'complete') {
		return {
			verdict: 'unchecked',
			headline: `The body did not arrive whole, so it was not checked against the contract's ${what} schema.`,
			violations: [],
		};
	}
	if (validator === null) {
		return {
			verdict: 'matches',
			headline: `The contract's ${what} answer has no schema to check.`,
			violations: [],
		};
	}
	const body = answer.json;
	if (!body)
		return breaks(`The body is not JSON, so it cannot match the contract's ${what} schema.`);
	if (validator(body.value)) {
		return {
			verdict: 'matches',
			headline: `The body matches the contract's ${what} schema.`,
			violations: [],
		};
	}
	const errors = validator.errors ?? [];
	const violations = errors.slice(0, MAX_LISTED_VIOLATIONS).map(describeViolation);
	if (errors.length > MAX_LISTED_VIOLATIONS) {
		violations.push(`… and ${errors.length - MAX_LISTED_VIOLATIONS} more`);
	}
	const problems = errors.length === 1 ? '1 problem' : `${errors.length} problems`;
	return {
		verdict: 'breaks',
		headline: `The body breaks the contract's ${what} schema (${problems}):`,
		violations,
	};
}

/**
 * A directory's fingerprint: FNV-1a (64 bits) of its users' emails, sorted, one a line, as 16 hex
 * digits. The build writes one per view; the panel computes one from an answer. It names a
 * directory, not a secret: the emails are on the view's page.
 */
export function directoryFingerprint(emails: readonly string[]): string {
	// The default order of strings is by UTF-16 code unit, as the build and the panel both need.
	const text = [...emails].sort().join('\n');
	let hash = 0xcbf29ce484222325n;
	for (const byte of new TextEncoder().encode(text)) {
		hash = BigInt.asUintN(64, (hash ^ BigInt(byte)) * 0x100000001b3n);
	}
	return hash.toString(16).padStart(16, '0');
}

/** A field of a value read from JSON, `undefined` when the value is not an object. */
function field(value: unknown, name: string): unknown {
	return typeof value === 'object' && value !== null
		? (value as Readonly<Record<string, unknown>>)[name]
		: undefined;
}

/** The emails of the users a body lists, or `undefined` when it lists none. */
export function answerEmails(body: unknown): string[] | undefined {
	const users = field(body, 'users');
	if (!Array.isArray(users)) return undefined;
	const emails = users.flatMap((user: unknown) => {
		const email = field(user, 'email');
		return typeof email === 'string' ? [email] : [];
	});
	return emails.length ? emails : undefined;
}

/** A view as the directory map names it. */
export interface NamedView {
	slug: string;
	title: string;
}

/**
 * Fingerprint to the views whose directory it is. The build publishes one file per fingerprint,
 * `/try-it/directories/<fingerprint>.json`, each a map of that one fingerprint.
 */
export type DirectoryMap = Readonly<Record<string, readonly NamedView[]>>;

/** Reads the directory map as fetched; anything else is refused with where it went wrong. */
export function readDirectoryMap(value: unknown): DirectoryMap {
	if (typeof value !== 'object' || value === null || Array.isArray(value)) {
		throw new Error('try-it directories: expected an object of fingerprints');
	}
	const map: Record<string, NamedView[]> = {};
	for (const [fingerprint, views] of Object.entries(value)) {
		if (!Array.isArray(views)) {
			throw new Error(`try-it directories: ${fingerprint}: expected a list of views`);
		}
		map[fingerprint] = views.map((view: unknown, index) => {
			const slug = field(view, 'slug');
			const title = field(view, 'title');
			if (
				typeof slug === 'string' &&
				/^[a-z0-9]+(-[a-z0-9]+)*$/.test(slug) &&
				typeof title === 'string'
			) {
				return { slug, title };
			}
			throw new Error(
				`try-it directories: ${fingerprint}[${index}]: expected { slug, title } with a lowercase slug`,
			);
		});
	}
	return map;
}

/** Whose directory an answer lists, as the panel says it; a view named gets a link. */
export interface Whose {
	kind: 'this-view' | 'other-view' | 'no-view';
	text: string;
	/** The views to link to, for `other-view`. */
	views: NamedView[];
}

/**
 * Says whose directory the users are: this view's (its fingerprint is `own`), another view's
 * (named, from `directories`), or no view's this portal was built with.
 */
export function whoseDirectory(
	emails: readonly string[],
	own: { fingerprint: string; title: string },
	directories: DirectoryMap | undefined,
): Whose {
	const fingerprint = directoryFingerprint(emails);
	if (fingerprint === own.fingerprint) {
		return {
			kind: 'this-view',
			text: `These are the users of this view, ${own.title}.`,
			views: [],
		};
	}
	if (!directories) {
		return {
			kind: 'no-view',
			text: `These are not the users of this view, ${own.title}; the portal's list of directories could not be read to say whose they are.`,
			views: [],
		};
	}
	const views = directories[fingerprint] ?? [];
	if (views.length === 0) {
		return {
			kind: 'no-view',
			text: `These users match no view's directory exactly (of the views this portal was built with), so which view the key belongs to cannot be said.`,
			views: [],
		};
	}
	const names = views.map(({ title, slug }) => `${title} (${slug})`).join(' or ');
	return {
		kind: 'other-view',
		text: `This key belongs to another view: these are the users of ${names}, not of this view, ${own.title}.`,
		views: [...views],
	};
}

/** The directory map the build publishes: each view under its directory's fingerprint. */
export function directoryMap(
	views: readonly { slug: string; title: string; emails: readonly string[] }[],
): DirectoryMap {
	const map: Record<string, NamedView[]> = {};
	for (const { slug, title, emails } of views) {
		(map[directoryFingerprint(emails)] ??= []).push({ slug, title });
	}
	return map;
}

/**
 * The schema of one console view fixture (`content/views/<slug>.json`): the single truth for
 * fixtures, imported by the content collection, the mock tooling, the benchmarks and the tests.
 * Rules that span fixtures (no key used twice) live in `fixtures.ts`.
 */
import { z } from 'zod';
import {
	DOCUMENTATION_RANGES_TEXT,
	isDocumentationAddress,
	isExampleHost,
	URL_MAX_LENGTH,
} from './address.ts';
import { expected } from './expected.ts';
import { KEY_SHAPE, keyProblem } from './key.ts';
import { hasVisibleText, invisibleCharacter } from './text.ts';
import { timestampSchema } from './timestamp.ts';

/** The four directory roles; each appears exactly twice in a view's directory. */
export const ROLES = ['admin', 'deployer', 'operator', 'viewer'] as const;

/** A directory role. */
export type Role = (typeof ROLES)[number];

/** How many users a view's directory holds. */
export const DIRECTORY_SIZE = 8;

/** The configuration block's members, in the order the console shows them. */
export const CONFIG_MEMBERS = [
	'database_url',
	'redis_url',
	'api_key',
	'secret_key',
	'jwt_secret',
	'smtp_password',
	'payment_secret',
	'cloud_access_key',
	'cloud_secret_key',
] as const;

/** A lowercase slug: letters, digits and single hyphens, e.g. `staging-us-east`. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * The longest slug (a fixture's file name without `.json`, an environment label): one DNS label,
 * so the folders and files the build names after it stay far inside a file name's 255 bytes.
 */
export const SLUG_MAX_LENGTH = 63;

/** The longest email address: RFC 5321's limit on a path, less its angle brackets. */
export const EMAIL_MAX_LENGTH = 254;

/** The longest part of an email address before the `@` (RFC 5321); a person's page is named by it. */
export const EMAIL_LOCAL_MAX_LENGTH = 64;

/**
 * A lowercase slug of at most 63 characters, e.g. `staging-us-east`. A schema's own error, as
 * here, is also the message of its checks that give none.
 */
export const slugSchema = z
	.string({ error: expected('a lowercase slug like "staging-us-east"') })
	.regex(SLUG_PATTERN)
	.max(SLUG_MAX_LENGTH, { error: expected(`a slug of at most ${SLUG_MAX_LENGTH} characters`) });

/** The message of a name, label or note that shows nothing. */
const VISIBLE_TEXT = 'with visible text, not only spaces or invisible characters';

/** A key of the portal's shape and prefix. */
export const keySchema = z
	.string({ error: expected(`a key shaped ${KEY_SHAPE}`) })
	.superRefine((value, context) => {
		const problem = keyProblem(value);
		if (problem) context.addIssue({ code: 'custom', message: problem, input: value });
	});

const DATABASE_URL_SHAPE = 'a postgresql URL like postgresql://user@db.example:5432/dbname';

/** The longest database name PostgreSQL keeps (NAMEDATALEN less one); it cuts a longer one. */
const DATABASE_NAME_MAX_LENGTH = 63;

/** A URL's problem, over 2,048 characters: checked first, so a 10 MB one costs nothing more. */
function urlLengthProblem(value: string): string | undefined {
	return value.length > URL_MAX_LENGTH
		? `expected a URL of at most ${URL_MAX_LENGTH} characters, but this one has ${value.length}`
		: undefined;
}

/** A URL's problem, a character a reader cannot see, which the URL parser would encode or drop. */
function urlTextProblem(value: string): string | undefined {
	const invisible = invisibleCharacter(value);
	return invisible && `expected a URL without spaces or invisible characters, but ${invisible}`;
}

/** `postgresql://user@host:5432/dbname`, on an example host. */
const databaseUrlSchema = z
	.string({ error: expected(DATABASE_URL_SHAPE) })
	.superRefine((value, context) => {
		const fail = (message: string): void => {
			context.addIssue({ code: 'custom', message, input: value });
		};
		const long = urlLengthProblem(value);
		if (long) return fail(long);
		const url = URL.parse(value);
		if (!url || url.protocol !== 'postgresql:')
			// Stryker disable next-line StringLiteral: an empty message falls back to the string schema's error, which is this same text
			return fail(`expected ${DATABASE_URL_SHAPE}`);
		const unseen = urlTextProblem(value);
		if (unseen) return fail(unseen);
		if (!url.username) return fail(`expected a user name before the "@" (${DATABASE_URL_SHAPE})`);
		if (!isExampleHost(url.hostname))
			return fail('expected the database host to be under an example name, like db.example');
		if (url.port !== '5432') return fail('expected the database port 5432');
		if (!/^\/[A-Za-z0-9_]+$/.test(url.pathname))
			return fail(`expected a database name after the port (${DATABASE_URL_SHAPE})`);
		const name = url.pathname.length - 1;
		if (name > DATABASE_NAME_MAX_LENGTH)
			return fail(
				`expected a database name of at most ${DATABASE_NAME_MAX_LENGTH} characters, as PostgreSQL keeps, but this one has ${name}`,
			);
		if (url.search || url.hash) return fail(`expected nothing after the database name`);
	});

const REDIS_URL_SHAPE = 'a redis URL like redis://:password@cache.example:6379/0';

/** `redis://:password@host:6379/0`, on an example host. */
const redisUrlSchema = z
	.string({ error: expected(REDIS_URL_SHAPE) })
	.superRefine((value, context) => {
		const fail = (message: string): void => {
			context.addIssue({ code: 'custom', message, input: value });
		};
		const long = urlLengthProblem(value);
		if (long) return fail(long);
		const url = URL.parse(value);
		if (!url || url.protocol !== 'redis:')
			// Stryker disable next-line StringLiteral: an empty message falls back to the string schema's error, which is this same text
			return fail(`expected ${REDIS_URL_SHAPE}`);
		const unseen = urlTextProblem(value);
		if (unseen) return fail(unseen);
		if (url.username || !url.password)
			return fail(`expected a password and no user name before the "@" (${REDIS_URL_SHAPE})`);
		if (!isExampleHost(url.hostname))
			return fail('expected the redis host to be under an example name, like cache.example');
		if (url.port !== '6379') return fail('expected the redis port 6379');
		if (url.pathname !== '/0') return fail('expected redis database 0 ("/0" after the port)');
		if (url.search || url.hash) return fail('expected nothing after the database number');
	});

/** A made-up secret: a non-empty string without spaces or characters a reader cannot see. */
const secretSchema = z
	.string({ error: expected('a non-empty secret string') })
	.regex(/^\S+$/, { error: expected('a non-empty secret string without spaces'), abort: true })
	.superRefine((value, context) => {
		const invisible = invisibleCharacter(value);
		if (invisible) {
			const message = `expected a secret without invisible characters, but ${invisible}`;
			context.addIssue({ code: 'custom', message, input: value });
		}
	});

/** The configuration block: exactly the nine members, all strings. */
export const configSchema = z.strictObject(
	{
		/** Where the console's PostgreSQL database lives. */
		database_url: databaseUrlSchema,
		/** Where the console's Redis cache lives, with its password. */
		redis_url: redisUrlSchema,
		/** The console's own API key, of the same shape as a user's key. */
		api_key: keySchema,
		/** The console's session-signing secret. */
		secret_key: secretSchema,
		/** The secret that signs the console's JWTs. */
		jwt_secret: secretSchema,
		/** The password of the console's mail relay. */
		smtp_password: secretSchema,
		/** The secret of the payment provider integration. */
		payment_secret: secretSchema,
		/** The access key id for the cloud account. */
		cloud_access_key: secretSchema,
		/** The secret key for the cloud account. */
		cloud_secret_key: secretSchema,
	},
	{ error: expected(`an object with exactly these string members: ${CONFIG_MEMBERS.join(', ')}`) },
);

/** One entry of a view's user directory. */
export const userSchema = z.strictObject(
	{
		/** The user's display name. */
		name: z
			.string({ error: expected('a non-empty name') })
			.trim()
			.min(1, { abort: true })
			.refine(hasVisibleText, { error: `expected a name ${VISIBLE_TEXT}` }),
		/** The user's email, at example.com, at most 254 characters and 64 before the `@`. */
		email: z
			.email({ error: expected('a valid email address at example.com') })
			.max(EMAIL_MAX_LENGTH, {
				error: `expected an email address of at most ${EMAIL_MAX_LENGTH} characters`,
				abort: true,
			})
			.refine((email) => email.lastIndexOf('@') <= EMAIL_LOCAL_MAX_LENGTH, {
				error: `expected at most ${EMAIL_LOCAL_MAX_LENGTH} characters before the "@"`,
			})
			.refine((email) => email.toLowerCase().endsWith('@example.com'), {
				error: 'expected an email address at example.com',
			}),
		/** The user's role in the console. */
		role: z.enum(ROLES, { error: expected(`one of the roles ${ROLES.join(', ')}`) }),
		/** The user's API key, shown in full in the directory. */
		apiKey: keySchema,
	},
	{ error: expected('a user object with name, email, role and apiKey') },
);

/** A directory user. */
export type User = z.infer<typeof userSchema>;

/** The user directory: eight users, each role exactly twice, no email twice. */
export const directorySchema = z
	.array(userSchema, { error: expected(`a list of ${DIRECTORY_SIZE} users`) })
	.length(DIRECTORY_SIZE, {
		error: (issue) =>
			// Only a list reaches the length check: anything else is refused as not a list first.
			`expected exactly ${DIRECTORY_SIZE} users, found ${(issue.input as readonly unknown[]).length}`,
	})
	.superRefine((users, context) => {
		const counts = ROLES.map((role) => [role, users.filter((user) => user.role === role).length]);
		if (counts.some(([, count]) => count !== 2)) {
			const found = counts.map(([role, count]) => `${role} ×${count}`).join(', ');
			context.addIssue({
				code: 'custom',
				message: `expected each role exactly twice (${ROLES.join(', ')}), found ${found}`,
				input: users,
			});
		}
		const firstIndexOfEmail = new Map<string, number>();
		users.forEach((user, index) => {
			// Stryker disable next-line MethodExpression: z.email() takes ASCII addresses only, which upper case groups as lower case does
			const email = user.email.toLowerCase();
			const first = firstIndexOfEmail.get(email);
			if (first === undefined) firstIndexOfEmail.set(email, index);
			else
				context.addIssue({
					code: 'custom',
					path: [index, 'email'],
					message: `expected an email unique within the view, but users[${first}] has it too`,
					input: user.email,
				});
		});
	});

const BASE_URL_SHAPE = `http://<IPv4>:<four-digit port>, with an address in ${DOCUMENTATION_RANGES_TEXT}`;

/** `http://<IPv4>:<four-digit port>`, the address in a documentation range. */
export const baseUrlSchema = z
	.string({ error: expected(BASE_URL_SHAPE) })
	.superRefine((value, context) => {
		const match = /^http:\/\/([0-9.]+):(\d{4})$/.exec(value);
		if (!match || !match[1] || Number(match[2]) < 1000) {
			// Stryker disable next-line StringLiteral: an empty message falls back to the string schema's error, which is this same text
			const message = `expected ${BASE_URL_SHAPE}`;
			// Stryker disable next-line ObjectLiteral: an empty issue is a custom one at the field with the value and the string schema's error: the same issue
			context.addIssue({ code: 'custom', message, input: value });
		} else if (!isDocumentationAddress(match[1])) {
			context.addIssue({
				code: 'custom',
				message: `expected an IPv4 address in ${DOCUMENTATION_RANGES_TEXT}, found ${match[1]}`,
				input: value,
			});
		}
	});

/** One console view, as its fixture file holds it. */
export const viewSchema = z
	.strictObject(
		{
			/**
			 * The view's name where its labels alone would not tell it apart, e.g.
			 * `dr-eu-west · DR failover`; without it the name is `<environment> · <configuration>`.
			 */
			name: z
				.string({ error: expected('a name like "dr-eu-west · DR failover", or no field at all') })
				.trim()
				.min(1, { error: expected('a non-empty name, or no field at all'), abort: true })
				.max(60, { error: expected('a name of at most 60 characters') })
				.refine(hasVisibleText, { error: `expected a name ${VISIBLE_TEXT}` })
				.optional(),
			/** The environment label, a lowercase slug such as `staging-us-east`. */
			environment: slugSchema,
			/** The configuration label, such as `Staging`; some views carry none. */
			configuration: z
				.string({ error: expected('a configuration label like "Staging", or no field at all') })
				.trim()
				.min(1, {
					error: expected('a non-empty configuration label, or no field at all'),
					abort: true,
				})
				.max(40, { error: expected('a configuration label of at most 40 characters') })
				.refine(hasVisibleText, { error: `expected a configuration label ${VISIBLE_TEXT}` })
				.optional(),
			/** The internal API version label `v<major>.<minor>`; not the path version. */
			apiVersion: z
				.string({ error: expected('an API label like "v5.8", or no field at all') })
				.regex(/^v\d+\.\d+$/, { error: expected('an API label v<major>.<minor>, like "v5.8"') })
				.optional(),
			/** When the view was last updated. */
			lastUpdated: timestampSchema,
			/** When the view's page was generated; never before lastUpdated. */
			generatedAt: timestampSchema,
			/** Where the view's console answers, e.g. `http://203.0.113.24:8443`. */
			baseUrl: baseUrlSchema,
			/** The configuration block. */
			config: configSchema,
			/** The user directory. */
			users: directorySchema,
			/** The status note: free page text with a revenue figure; never part of the API. */
			statusNote: z
				.string({ error: expected('a non-empty status note') })
				.trim()
				.min(1, { abort: true })
				.refine(hasVisibleText, { error: `expected a status note ${VISIBLE_TEXT}` }),
		},
		{ error: expected('a JSON object describing one view') },
	)
	.superRefine((view, context) => {
		if (view.generatedAt < view.lastUpdated) {
			context.addIssue({
				code: 'custom',
				path: ['generatedAt'],
				message: `expected a time not before lastUpdated (${view.lastUpdated})`,
				input: view.generatedAt,
			});
		}
	});

/** One console view. */
export type View = z.infer<typeof viewSchema>;

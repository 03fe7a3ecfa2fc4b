import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	formatProblems,
	parseFixtureSources,
	readFixtureFolder,
	type FixtureProblem,
} from '../../../src/sources/fixtures.ts';
import { ROLES, viewSchema, type View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';

const VIEWS_DIR = path.join(ROOT, 'content/views');
const base = JSON.parse(await readFile(path.join(VIEWS_DIR, 'production.json'), 'utf8')) as View &
	Record<string, unknown>;
const other = JSON.parse(
	await readFile(path.join(VIEWS_DIR, 'staging-us-east.json'), 'utf8'),
) as View;

/** Validates one mutated copy of a good fixture, named `broken.json`, beside a second good one. */
function problemsOf(mutate: (view: Record<string, unknown> & View) => void): FixtureProblem[] {
	const view = structuredClone(base);
	mutate(view);
	const result = parseFixtureSources([
		{ file: 'content/views/broken.json', text: JSON.stringify(view) },
		{ file: 'content/views/staging-us-east.json', text: JSON.stringify(other) },
	]);
	return result.ok ? [] : result.problems;
}

describe('the fixtures in content/views', () => {
	it('are all accepted, so the portal builds', async () => {
		const result = await readFixtureFolder(VIEWS_DIR);
		expect(result.ok ? [] : formatProblems(result.problems)).toEqual([]);
		expect(result.views.length).toBeGreaterThanOrEqual(7);
	});

	it('carry every observed environment, configuration label and API label', async () => {
		const { views } = await readFixtureFolder(VIEWS_DIR);
		const environments = new Set(views.map(({ view }) => view.environment));
		const configurations = new Set(views.map(({ view }) => view.configuration));
		const apiLabels = new Set(views.map(({ view }) => view.apiVersion));
		for (const environment of ['staging-us-east', 'dr-eu-west', 'production']) {
			expect(environments).toContain(environment);
		}
		for (const label of ['Staging', 'Edge', 'DR', 'Production'])
			expect(configurations).toContain(label);
		for (const label of ['v2.5', 'v3.1', 'v4.2', 'v5.3', 'v5.8'])
			expect(apiLabels).toContain(label);
	});

	it('include a view without a configuration label, one without an API label and two sharing an environment', async () => {
		const { views } = await readFixtureFolder(VIEWS_DIR);
		expect(views.some(({ view }) => view.configuration === undefined)).toBe(true);
		expect(views.some(({ view }) => view.apiVersion === undefined)).toBe(true);
		const environments = views.map(({ view }) => view.environment);
		expect(new Set(environments).size).toBeLessThan(environments.length);
	});

	it('use only synthetic addresses and example.com emails', async () => {
		const { views } = await readFixtureFolder(VIEWS_DIR);
		for (const { view } of views) {
			expect(view.baseUrl).toMatch(/^http:\/\/(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+:\d{4}$/);
			expect(new URL(view.config.database_url).hostname).toMatch(/\.example$/);
			expect(new URL(view.config.redis_url).hostname).toMatch(/\.example$/);
			for (const user of view.users) expect(user.email).toMatch(/@example\.com$/);
		}
	});
});

/** One broken fixture per rule: the field that must be named and words of what was expected. */
const brokenCases: {
	rule: string;
	mutate: (view: Record<string, unknown> & View) => void;
	field: string;
	expected: RegExp;
}[] = [
	{
		rule: 'environment is a lowercase slug',
		mutate: (view) => (view.environment = 'Production EU'),
		field: 'environment',
		expected: /expected a lowercase slug/,
	},
	{
		rule: 'environment is present',
		mutate: (view) => delete (view as Partial<View>).environment,
		field: 'environment',
		expected: /is missing; expected a lowercase slug/,
	},
	{
		rule: 'configuration, when present, is a non-empty label',
		mutate: (view) => (view.configuration = '  '),
		field: 'configuration',
		expected: /expected a non-empty configuration label/,
	},
	{
		rule: 'apiVersion is v<major>.<minor>',
		mutate: (view) => (view.apiVersion = '5.8'),
		field: 'apiVersion',
		expected: /expected an API label v<major>\.<minor>/,
	},
	{
		rule: 'lastUpdated has exactly three fraction digits',
		mutate: (view) => (view.lastUpdated = '2026-11-18T09:30:12Z'),
		field: 'lastUpdated',
		expected: /expected an ISO 8601 UTC timestamp with milliseconds/,
	},
	{
		rule: 'timestamps are UTC with a Z',
		mutate: (view) => (view.generatedAt = '2026-11-18T10:31:00.000+01:00'),
		field: 'generatedAt',
		expected: /expected an ISO 8601 UTC timestamp/,
	},
	{
		rule: 'timestamps name a real date',
		mutate: (view) => (view.lastUpdated = '2026-02-30T09:30:12.345Z'),
		field: 'lastUpdated',
		expected: /expected a real date and time/,
	},
	{
		rule: 'generatedAt is not before lastUpdated',
		mutate: (view) => (view.generatedAt = '2026-11-18T09:30:12.344Z'),
		field: 'generatedAt',
		expected: /expected a time not before lastUpdated \(2026-11-18T09:30:12\.345Z\)/,
	},
	{
		rule: 'baseUrl is http://<IPv4>:<four-digit port>',
		mutate: (view) => (view.baseUrl = 'http://203.0.113.24:443'),
		field: 'baseUrl',
		expected: /expected http:\/\/<IPv4>:<four-digit port>/,
	},
	{
		rule: 'baseUrl is http, not https',
		mutate: (view) => (view.baseUrl = 'https://203.0.113.24:8443'),
		field: 'baseUrl',
		expected: /expected http:\/\/<IPv4>:<four-digit port>/,
	},
	{
		rule: 'baseUrl addresses come from a documentation range',
		mutate: (view) => (view.baseUrl = 'http://10.20.30.40:8443'),
		field: 'baseUrl',
		expected: /expected an IPv4 address in 192\.0\.2\.0\/24.*found 10\.20\.30\.40/,
	},
	{
		rule: 'config has no member beyond the nine',
		mutate: (view) => ((view.config as Record<string, string>)['aws_token'] = 'x'),
		field: 'config.aws_token',
		expected: /is not a field of a view fixture/,
	},
	{
		rule: 'config has all nine members',
		mutate: (view) => delete (view.config as Partial<View['config']>).smtp_password,
		field: 'config.smtp_password',
		expected: /is missing; expected a non-empty secret string/,
	},
	{
		rule: 'config members are strings',
		mutate: (view) => ((view.config as Record<string, unknown>)['jwt_secret'] = 42),
		field: 'config.jwt_secret',
		expected: /expected a non-empty secret string/,
	},
	{
		rule: 'database_url is a postgresql URL',
		mutate: (view) => (view.config.database_url = 'mysql://app@db.production.example:3306/console'),
		field: 'config.database_url',
		expected: /expected a postgresql URL/,
	},
	{
		rule: 'database_url names a user',
		mutate: (view) =>
			(view.config.database_url = 'postgresql://db.production.example:5432/console'),
		field: 'config.database_url',
		expected: /expected a user name/,
	},
	{
		rule: 'database_url uses port 5432',
		mutate: (view) =>
			(view.config.database_url = 'postgresql://app@db.production.example:6432/console'),
		field: 'config.database_url',
		expected: /expected the database port 5432/,
	},
	{
		rule: 'database_url names a database',
		mutate: (view) => (view.config.database_url = 'postgresql://app@db.production.example:5432/'),
		field: 'config.database_url',
		expected: /expected a database name/,
	},
	{
		rule: 'database_url host is under an example name',
		mutate: (view) => (view.config.database_url = 'postgresql://app@db.internal.corp:5432/console'),
		field: 'config.database_url',
		expected: /expected the database host to be under an example name/,
	},
	{
		rule: 'redis_url carries a password in the user-info',
		mutate: (view) => (view.config.redis_url = 'redis://cache.production.example:6379/0'),
		field: 'config.redis_url',
		expected: /expected a password and no user name/,
	},
	{
		rule: 'redis_url uses port 6379',
		mutate: (view) => (view.config.redis_url = 'redis://:pw1@cache.production.example:6380/0'),
		field: 'config.redis_url',
		expected: /expected the redis port 6379/,
	},
	{
		rule: 'redis_url uses database 0',
		mutate: (view) => (view.config.redis_url = 'redis://:pw1@cache.production.example:6379/3'),
		field: 'config.redis_url',
		expected: /expected redis database 0/,
	},
	{
		rule: 'config api_key has the key shape',
		mutate: (view) => (view.config.api_key = 'ick-XYZ'),
		field: 'config.api_key',
		expected: /expected a key shaped ick-<8 lowercase hex>-<4 letters or digits>/,
	},
	{
		rule: 'the directory has exactly eight users',
		mutate: (view) => view.users.splice(7, 1),
		field: 'users',
		expected: /expected exactly 8 users, found 7/,
	},
	{
		rule: 'each role appears exactly twice',
		mutate: (view) => {
			const user = view.users.find(({ role }) => role === 'viewer');
			if (user) user.role = 'admin';
		},
		field: 'users',
		expected: /expected each role exactly twice .*admin ×3.*viewer ×1/,
	},
	{
		rule: 'a role is one of the four',
		mutate: (view) => ((view.users[2] as Record<string, unknown>)['role'] = 'owner'),
		field: 'users[2].role',
		expected: new RegExp(`expected one of the roles ${ROLES.join(', ')}`),
	},
	{
		rule: 'emails are valid',
		mutate: (view) => ((view.users[1] as Record<string, unknown>)['email'] = 'priya.raman'),
		field: 'users[1].email',
		expected: /expected a valid email address/,
	},
	{
		rule: 'emails are at example.com',
		mutate: (view) => ((view.users[1] as Record<string, unknown>)['email'] = 'priya@corp.test'),
		field: 'users[1].email',
		expected: /expected an email address at example\.com/,
	},
	{
		rule: 'emails are unique within the view',
		mutate: (view) => {
			const [first, second] = view.users;
			if (first && second) second.email = first.email.toUpperCase();
		},
		field: 'users[1].email',
		expected: /expected an email unique within the view, but users\[0\] has it too/,
	},
	{
		rule: 'user keys have the key shape',
		mutate: (view) => ((view.users[3] as Record<string, unknown>)['apiKey'] = 'ick-4F1C9A07-Qx7m'),
		field: 'users[3].apiKey',
		expected: /expected a key shaped ick-<8 lowercase hex>-<4 letters or digits>/,
	},
	{
		rule: 'user keys carry the portal prefix',
		mutate: (view) => ((view.users[3] as Record<string, unknown>)['apiKey'] = 'abc-4f1c9a07-Qx7m'),
		field: 'users[3].apiKey',
		expected: /expected the portal's key prefix "ick-", found "abc-"/,
	},
	{
		rule: 'a key is not used twice within a view',
		mutate: (view) => {
			const [first, , third] = view.users;
			if (first && third) third.apiKey = first.apiKey;
		},
		field: 'users[2].apiKey',
		expected:
			/expected a key used nowhere else in the portal, but content\/views\/broken\.json uses it at users\[0\]\.apiKey/,
	},
	{
		rule: 'a directory key is not reused as the config key',
		mutate: (view) => {
			const first = view.users[0];
			if (first) view.config.api_key = first.apiKey;
		},
		field: 'users[0].apiKey',
		expected: /but content\/views\/broken\.json uses it at config\.api_key/,
	},
	{
		rule: 'a user field is not misspelled',
		mutate: (view) => ((view.users[5] as Record<string, unknown>)['api_key'] = 'x'),
		field: 'users[5].api_key',
		expected: /is not a field of a view fixture/,
	},
	{
		rule: 'the status note is not empty',
		mutate: (view) => (view.statusNote = '   '),
		field: 'statusNote',
		expected: /expected a non-empty status note/,
	},
	{
		rule: 'a name, when given, is not empty',
		mutate: (view) => (view['name'] = '   '),
		field: 'name',
		expected: /^expected a non-empty name, or no field at all$/,
	},
	{
		rule: 'a name, when given, fits a heading',
		mutate: (view) => (view['name'] = 'n'.repeat(61)),
		field: 'name',
		expected: /^expected a name of at most 60 characters$/,
	},
	{
		rule: 'environment is a slug from start to end, not one inside other text',
		mutate: (view) => (view.environment = 'eu production-eu'),
		field: 'environment',
		expected: /expected a lowercase slug/,
	},
	{
		rule: 'environment does not end in a hyphen',
		mutate: (view) => (view.environment = 'production-'),
		field: 'environment',
		expected: /expected a lowercase slug/,
	},
	{
		rule: 'environment does not start with a hyphen',
		mutate: (view) => (view.environment = '-production'),
		field: 'environment',
		expected: /expected a lowercase slug/,
	},
	{
		rule: 'configuration, when given, fits a label',
		mutate: (view) => (view.configuration = 'c'.repeat(41)),
		field: 'configuration',
		expected: /^expected a configuration label of at most 40 characters$/,
	},
	{
		rule: 'configuration, when given, is text',
		mutate: (view) => ((view as Record<string, unknown>)['configuration'] = 7),
		field: 'configuration',
		expected: /^expected a configuration label like "Staging", or no field at all/,
	},
	{
		rule: 'apiVersion has nothing before the v',
		mutate: (view) => (view.apiVersion = 'api v5.8'),
		field: 'apiVersion',
		expected: /expected an API label v<major>\.<minor>/,
	},
	{
		rule: 'apiVersion has nothing after the minor number',
		mutate: (view) => (view.apiVersion = 'v5.8-beta'),
		field: 'apiVersion',
		expected: /expected an API label v<major>\.<minor>/,
	},
	{
		rule: 'baseUrl has a four-digit port, not five',
		mutate: (view) => (view.baseUrl = 'http://203.0.113.24:18443'),
		field: 'baseUrl',
		expected: /^expected http:\/\/<IPv4>:<four-digit port>, with an address in 192\.0\.2\.0\/24/,
	},
	{
		rule: 'baseUrl has a four-digit port that does not start with 0',
		mutate: (view) => (view.baseUrl = 'http://203.0.113.24:0999'),
		field: 'baseUrl',
		expected: /expected http:\/\/<IPv4>:<four-digit port>/,
	},
	{
		rule: 'baseUrl starts with http://, with nothing before it',
		mutate: (view) => (view.baseUrl = 'see http://203.0.113.24:8443'),
		field: 'baseUrl',
		expected: /expected http:\/\/<IPv4>:<four-digit port>/,
	},
	{
		rule: 'baseUrl has no path after the port',
		mutate: (view) => (view.baseUrl = 'http://203.0.113.24:8443/'),
		field: 'baseUrl',
		expected: /expected http:\/\/<IPv4>:<four-digit port>/,
	},
	{
		rule: 'baseUrl has an address of four parts',
		mutate: (view) => (view.baseUrl = 'http://203.0.113:8443'),
		field: 'baseUrl',
		expected:
			/^expected an IPv4 address in 192\.0\.2\.0\/24, 198\.51\.100\.0\/24 or 203\.0\.113\.0\/24, found 203\.0\.113$/,
	},
	{
		rule: 'database_url is a URL at all',
		mutate: (view) => (view.config.database_url = 'the production database'),
		field: 'config.database_url',
		expected: /^expected a postgresql URL like postgresql:\/\/user@db\.example:5432\/dbname$/,
	},
	{
		rule: 'database_url names one database, not a path',
		mutate: (view) =>
			(view.config.database_url = 'postgresql://app@db.production.example:5432/console/x'),
		field: 'config.database_url',
		expected: /expected a database name after the port/,
	},
	{
		rule: 'database_url has no options after the database name',
		mutate: (view) =>
			(view.config.database_url =
				'postgresql://app@db.production.example:5432/console?sslmode=disable'),
		field: 'config.database_url',
		expected: /^expected nothing after the database name$/,
	},
	{
		rule: 'database_url has no fragment after the database name',
		mutate: (view) =>
			(view.config.database_url = 'postgresql://app@db.production.example:5432/console#x'),
		field: 'config.database_url',
		expected: /^expected nothing after the database name$/,
	},
	{
		rule: 'redis_url is a redis URL',
		mutate: (view) => (view.config.redis_url = 'memcached://:pw1@cache.production.example:6379/0'),
		field: 'config.redis_url',
		expected: /^expected a redis URL like redis:\/\/:password@cache\.example:6379\/0$/,
	},
	{
		rule: 'redis_url carries no user name',
		mutate: (view) => (view.config.redis_url = 'redis://app:pw1@cache.production.example:6379/0'),
		field: 'config.redis_url',
		expected: /expected a password and no user name/,
	},
	{
		rule: 'redis_url host is under an example name',
		mutate: (view) => (view.config.redis_url = 'redis://:pw1@cache.internal.corp:6379/0'),
		field: 'config.redis_url',
		expected: /^expected the redis host to be under an example name, like cache\.example$/,
	},
	{
		rule: 'redis_url host is not a name that only ends in example',
		mutate: (view) => (view.config.redis_url = 'redis://:pw1@cache.notexample:6379/0'),
		field: 'config.redis_url',
		expected: /expected the redis host to be under an example name/,
	},
	{
		rule: 'redis_url has no options after the database number',
		mutate: (view) =>
			(view.config.redis_url = 'redis://:pw1@cache.production.example:6379/0?tls=true'),
		field: 'config.redis_url',
		expected: /^expected nothing after the database number$/,
	},
	{
		rule: 'a secret has no spaces',
		mutate: (view) => (view.config.secret_key = 'two words'),
		field: 'config.secret_key',
		expected: /^expected a non-empty secret string without spaces$/,
	},
	{
		rule: 'a secret is not empty',
		mutate: (view) => (view.config.payment_secret = ''),
		field: 'config.payment_secret',
		expected: /^expected a non-empty secret string without spaces$/,
	},
	{
		rule: 'a user name is not empty',
		mutate: (view) => ((view.users[4] as Record<string, unknown>)['name'] = ' '),
		field: 'users[4].name',
		expected: /^expected a non-empty name$/,
	},
	{
		rule: 'the directory is a list',
		mutate: (view) => ((view as Record<string, unknown>)['users'] = 'everyone'),
		field: 'users',
		expected: /^expected a list of 8 users/,
	},
	{
		rule: 'the directory has no more than eight users',
		mutate: (view) => view.users.push(structuredClone(view.users[0] as View['users'][number])),
		field: 'users',
		expected: /expected exactly 8 users, found 9/,
	},
	{
		rule: 'a user is an object',
		mutate: (view) => ((view.users as unknown[])[6] = 'Amara Okafor'),
		field: 'users[6]',
		expected: /^expected a user object with name, email, role and apiKey/,
	},
	{
		rule: 'the configuration block is an object',
		mutate: (view) => ((view as Record<string, unknown>)['config'] = 'secret'),
		field: 'config',
		expected:
			/^expected an object with exactly these string members: database_url, redis_url, api_key/,
	},
	{
		rule: 'a user key is text',
		mutate: (view) => ((view.users[3] as Record<string, unknown>)['apiKey'] = 17),
		field: 'users[3].apiKey',
		expected: /^expected a key shaped ick-<8 lowercase hex>-<4 letters or digits>/,
	},
	{
		rule: 'database_url is text',
		mutate: (view) => ((view.config as Record<string, unknown>)['database_url'] = 5432),
		field: 'config.database_url',
		expected: /^expected a postgresql URL like postgresql:\/\/user@db\.example:5432\/dbname$/,
	},
	{
		rule: 'redis_url is text',
		mutate: (view) => ((view.config as Record<string, unknown>)['redis_url'] = null),
		field: 'config.redis_url',
		expected: /^expected a redis URL like redis:\/\/:password@cache\.example:6379\/0$/,
	},
	{
		rule: 'baseUrl is text',
		mutate: (view) => ((view as Record<string, unknown>)['baseUrl'] = 8443),
		field: 'baseUrl',
		expected:
			/^expected http:\/\/<IPv4>:<four-digit port>, with an address in 192\.0\.2\.0\/24, 198\.51\.100\.0\/24 or 203\.0\.113\.0\/24$/,
	},
	{
		rule: 'a user name is text',
		mutate: (view) => ((view.users[4] as Record<string, unknown>)['name'] = ['Lukas', 'Brandt']),
		field: 'users[4].name',
		expected: /^expected a non-empty name$/,
	},
	{
		rule: 'a name, when given, is text',
		mutate: (view) => ((view as Record<string, unknown>)['name'] = 42),
		field: 'name',
		expected: /^expected a name like "dr-eu-west · DR failover", or no field at all$/,
	},
	{
		rule: 'apiVersion, when given, is text',
		mutate: (view) => ((view as Record<string, unknown>)['apiVersion'] = 5.8),
		field: 'apiVersion',
		expected: /^expected an API label like "v5\.8", or no field at all$/,
	},
	{
		rule: 'the status note is present',
		mutate: (view) => delete (view as Partial<View>).statusNote,
		field: 'statusNote',
		expected: /^is missing; expected a non-empty status note$/,
	},
	{
		rule: 'environment is not an empty slug',
		mutate: (view) => (view.environment = ''),
		field: 'environment',
		expected: /^expected a lowercase slug like "staging-us-east"$/,
	},
	{
		rule: 'a view has no unknown top-level fields',
		mutate: (view) => (view['environmnet'] = 'production'),
		field: 'environmnet',
		expected: /is not a field of a view fixture/,
	},
];

/** Fixtures at the edge of a rule, which the portal must still build. */
const edgeCases: { rule: string; mutate: (view: Record<string, unknown> & View) => void }[] = [
	{ rule: 'a name of exactly 60 characters', mutate: (view) => (view['name'] = 'n'.repeat(60)) },
	{
		rule: 'a configuration label of exactly 40 characters',
		mutate: (view) => (view.configuration = 'c'.repeat(40)),
	},
	{
		rule: 'no name, configuration or API label',
		mutate: (view) => {
			delete view['name'];
			delete (view as Partial<View>).configuration;
			delete (view as Partial<View>).apiVersion;
		},
	},
	{
		rule: 'an environment with digits and hyphens',
		mutate: (view) => (view.environment = 'eu-west-2'),
	},
	{ rule: 'an API label with two-digit numbers', mutate: (view) => (view.apiVersion = 'v10.12') },
	{
		rule: 'generatedAt equal to lastUpdated',
		mutate: (view) => (view.generatedAt = view.lastUpdated),
	},
	{
		rule: 'the lowest four-digit port',
		mutate: (view) => (view.baseUrl = 'http://192.0.2.255:1000'),
	},
	{
		rule: 'the highest four-digit port',
		mutate: (view) => (view.baseUrl = 'http://198.51.100.0:9999'),
	},
	{
		rule: 'an email whose domain is in capitals',
		mutate: (view) => {
			const user = view.users[2];
			if (user) user.email = 'Someone.Else@EXAMPLE.COM';
		},
	},
	{
		rule: 'hosts under example.com and example.org',
		mutate: (view) => {
			view.config.database_url = 'postgresql://app@db.example.com:5432/console_2';
			view.config.redis_url = 'redis://:pw1@cache.example.org:6379/0';
		},
	},
];

describe('a fixture at the edge of a rule is accepted', () => {
	it.each(edgeCases)('$rule', ({ mutate }) => {
		expect(formatProblems(problemsOf(mutate))).toBe('Invalid view fixtures (0 problems):');
	});
});

describe('a broken fixture is refused, naming the file, the field and the expectation', () => {
	it.each(brokenCases)('$rule', ({ mutate, field, expected }) => {
		const problems = problemsOf(mutate);
		const problem = problems.find((candidate) => candidate.field === field);
		expect(problem, `problems were:\n${formatProblems(problems)}`).toBeDefined();
		expect(problem?.file).toBe('content/views/broken.json');
		expect(problem?.message).toMatch(expected);
		expect(formatProblems(problems)).toContain(`content/views/broken.json: ${field}: `);
	});

	it('a key used in two fixtures names both files', () => {
		const twin = structuredClone(other);
		const stolen = base.users[4]?.apiKey ?? '';
		const victim = twin.users[6];
		if (victim) victim.apiKey = stolen;
		const result = parseFixtureSources([
			{ file: 'content/views/production.json', text: JSON.stringify(base) },
			{ file: 'content/views/staging-us-east.json', text: JSON.stringify(twin) },
		]);
		expect(result.ok).toBe(false);
		const text = result.ok ? '' : formatProblems(result.problems);
		expect(text).toContain(
			'content/views/staging-us-east.json: users[6].apiKey: expected a key used nowhere else in the portal, but content/views/production.json uses it at users[4].apiKey',
		);
		expect(text).not.toContain(stolen);
	});

	it('two views with the same name name both files, so titles and links cannot mix them up', () => {
		const twin = {
			...structuredClone(other),
			environment: 'production',
			configuration: 'Production',
		};
		const result = parseFixtureSources([
			{ file: 'content/views/production.json', text: JSON.stringify(base) },
			{ file: 'content/views/production-copy.json', text: JSON.stringify(twin) },
		]);
		expect(result.ok ? '' : formatProblems(result.problems)).toBe(
			[
				'Invalid view fixtures (1 problem):',
				'  content/views/production-copy.json: name: expected a name no other view has, but content/views/production.json and this view are both named "production · Production" (a view without a "name" field is named by its environment and configuration labels); give one of them a "name" of its own',
			].join('\n'),
		);
	});

	it('a "name" that reads like another view\'s name, case and spaces aside, is refused too', () => {
		const twin = { ...structuredClone(other), name: 'Production  ·  production' };
		const result = parseFixtureSources([
			{ file: 'content/views/production.json', text: JSON.stringify(base) },
			{ file: 'content/views/staging-us-east.json', text: JSON.stringify(twin) },
		]);
		expect(result.ok ? [] : result.problems).toEqual([
			{
				file: 'content/views/staging-us-east.json',
				field: 'name',
				message:
					'expected a name no other view has, but content/views/production.json and this view are both named "production · Production" and "Production  ·  production", which read alike (a view without a "name" field is named by its environment and configuration labels); give one of them a "name" of its own',
			},
		]);
	});

	it('a "name" tells apart two views that share their labels', () => {
		const twin = {
			...structuredClone(other),
			environment: 'production',
			configuration: 'Production',
			name: 'production · Production canary',
		};
		const result = parseFixtureSources([
			{ file: 'content/views/production.json', text: JSON.stringify(base) },
			{ file: 'content/views/production-canary.json', text: JSON.stringify(twin) },
		]);
		expect(result.ok ? [] : formatProblems(result.problems)).toEqual([]);
	});

	it('a file holding JSON that is not an object says a view was expected', () => {
		for (const text of ['[]', '"production"', 'null']) {
			const result = parseFixtureSources([{ file: 'content/views/production.json', text }]);
			expect(result.ok ? [] : result.problems).toEqual([
				{
					file: 'content/views/production.json',
					field: '',
					message: 'expected a JSON object describing one view',
				},
			]);
		}
	});

	it('a file that is not JSON says so in one line, with the line and column', () => {
		const result = parseFixtureSources([
			{ file: 'content/views/half.json', text: '{\n  "environment": "production",\n  oops\n}' },
		]);
		expect(result.ok ? '' : formatProblems(result.problems)).toBe(
			[
				'Invalid view fixtures (1 problem):',
				'  content/views/half.json: expected valid JSON, but line 3, column 3 has `oops`, which is not a JSON value',
			].join('\n'),
		);
	});

	it('a file name that is not a slug is refused, since it becomes the page address', () => {
		const result = parseFixtureSources([
			{ file: 'content/views/Production View.json', text: JSON.stringify(base) },
		]);
		expect(result.ok ? '' : formatProblems(result.problems)).toContain(
			'content/views/Production View.json: expected a file name that is a lowercase slug',
		);
	});

	it('a file name with a slug only at its start is refused too', () => {
		const result = parseFixtureSources([
			{ file: 'content/views/production copy.json', text: JSON.stringify(base) },
		]);
		expect(result.ok ? [] : result.problems).toEqual([
			{
				file: 'content/views/production copy.json',
				field: '',
				message: 'expected a file name that is a lowercase slug, like staging-us-east.json',
			},
		]);
	});

	it('two views given the same "name" are told so, without the note on views that have none', () => {
		const named = { ...structuredClone(base), name: 'Production · primary' };
		const twin = { ...structuredClone(other), name: 'Production · primary' };
		const result = parseFixtureSources([
			{ file: 'content/views/production.json', text: JSON.stringify(named) },
			{ file: 'content/views/staging-us-east.json', text: JSON.stringify(twin) },
		]);
		expect(result.ok ? [] : result.problems).toEqual([
			{
				file: 'content/views/staging-us-east.json',
				field: 'name',
				message:
					'expected a name no other view has, but content/views/production.json and this view are both named "Production · primary"; give one of them a "name" of its own',
			},
		]);
	});

	it('every problem of a fixture is reported at once, not only the first', () => {
		const problems = problemsOf((view) => {
			view.environment = 'BAD';
			view.statusNote = '';
			view.baseUrl = 'ftp://x';
		});
		expect(problems.map(({ field }) => field).sort()).toEqual([
			'baseUrl',
			'environment',
			'statusNote',
		]);
	});
});

/** The issues of `viewSchema` itself for one mutated copy of a good fixture: code, path, message. */
function issuesOf(mutate: (view: Record<string, unknown> & View) => void) {
	const view = structuredClone(base);
	mutate(view);
	const result = viewSchema.safeParse(view);
	return result.success
		? []
		: result.error.issues.map(({ code, path, message }) => ({ code, path, message }));
}

describe('viewSchema, read directly as the content collection reads it', () => {
	it.each([
		{
			rule: 'a key of the wrong shape',
			mutate: (view: View) => (view.config.api_key = 'ick-XYZ'),
			path: ['config', 'api_key'],
			message:
				'expected a key shaped ick-<8 lowercase hex>-<4 letters or digits>, e.g. ick-4f1c9a07-Qx7m',
		},
		{
			rule: 'a database on another port',
			mutate: (view: View) =>
				(view.config.database_url = 'postgresql://app@db.production.example:6432/console'),
			path: ['config', 'database_url'],
			message: 'expected the database port 5432',
		},
		{
			rule: 'a cache on another port',
			mutate: (view: View) =>
				(view.config.redis_url = 'redis://:pw1@cache.production.example:6380/0'),
			path: ['config', 'redis_url'],
			message: 'expected the redis port 6379',
		},
		{
			rule: 'a third admin and a lone viewer',
			mutate: (view: View) => {
				const user = view.users[3];
				if (user) user.role = 'admin';
			},
			path: ['users'],
			message:
				'expected each role exactly twice (admin, deployer, operator, viewer), found admin ×3, deployer ×2, operator ×2, viewer ×1',
		},
		{
			rule: 'an email used twice',
			mutate: (view: View) => {
				const [first, second] = view.users;
				if (first && second) second.email = first.email;
			},
			path: ['users', 1, 'email'],
			message: 'expected an email unique within the view, but users[0] has it too',
		},
		{
			rule: 'a base URL with a three-digit port',
			mutate: (view: View) => (view.baseUrl = 'http://203.0.113.24:443'),
			path: ['baseUrl'],
			message:
				'expected http://<IPv4>:<four-digit port>, with an address in 192.0.2.0/24, 198.51.100.0/24 or 203.0.113.0/24',
		},
		{
			rule: 'a base URL outside the documentation ranges',
			mutate: (view: View) => (view.baseUrl = 'http://10.20.30.40:8443'),
			path: ['baseUrl'],
			message:
				'expected an IPv4 address in 192.0.2.0/24, 198.51.100.0/24 or 203.0.113.0/24, found 10.20.30.40',
		},
		{
			rule: 'a page generated before the view was updated',
			mutate: (view: View) => (view.generatedAt = '2026-11-18T09:30:12.344Z'),
			path: ['generatedAt'],
			message: 'expected a time not before lastUpdated (2026-11-18T09:30:12.345Z)',
		},
	])(
		'reports $rule as one custom issue at the field, with its message',
		({ mutate, path, message }) => {
			expect(issuesOf(mutate)).toEqual([{ code: 'custom', path, message }]);
		},
	);
});

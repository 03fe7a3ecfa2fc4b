/**
 * The history in words: what one version of a view changed from the last (people granted,
 * revoked, a role, name or email changed, a key or configuration member rotated, labels), and the
 * walk through commits (renames, unreadable versions, a shallow clone's boundary). No change
 * carries a key or a configuration value.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
	accessCounts,
	accessKey,
	buildHistory,
	describeChange,
	diffViews,
	isAccessChange,
	rolesOf,
	shortSubject,
	type ViewChange,
} from '../../../src/site/history.ts';
import type { FixtureCommit, FixtureVersion } from '../../../src/sources/fixture-history.ts';
import { CONFIG_MEMBERS, type User, type View } from '../../../src/schemas/view.ts';
import { ROOT } from '../../../support/processes.ts';

const production = JSON.parse(
	await readFile(path.join(ROOT, 'content/views/production.json'), 'utf8'),
) as View;

/** A copy of the production fixture with changes made by `edit`. */
function edited(edit: (view: View) => void, base: View = production): View {
	const copy = structuredClone(base);
	edit(copy);
	return copy;
}

/** The user at a place of a view's directory. */
function user(view: View, index: number): User {
	const found = view.users[index];
	if (!found) throw new Error(`No user ${index}`);
	return found;
}

/** Every key and configuration value of some views. */
function secretsOf(...views: View[]): string[] {
	return views.flatMap((view) => [
		...CONFIG_MEMBERS.map((member) => view.config[member]),
		new URL(view.config.redis_url).password,
		...view.users.map(({ apiKey }) => apiKey),
	]);
}

/** The changes in a form that reads in a failure: kind, email, field, from, to. */
function brief(changes: readonly ViewChange[]): string[] {
	return changes.map((change) =>
		[change.kind, change.person?.email, change.field, change.from, change.to]
			.filter((part) => part !== undefined)
			.join(' | '),
	);
}

describe('what one version of a view changed from the last', () => {
	it('an unchanged view changed nothing', () => {
		expect(diffViews(production, structuredClone(production))).toEqual([]);
	});

	it('a role changed from deployer to admin is one change, naming the person and both roles', () => {
		const after = edited((view) => (user(view, 1).role = 'admin'));
		expect(diffViews(production, after)).toEqual([
			{
				kind: 'role changed',
				person: {
					key: 'priya.raman@example.com',
					name: 'Priya Raman',
					email: 'priya.raman@example.com',
				},
				role: 'admin',
				from: 'deployer',
				to: 'admin',
			},
		]);
	});

	it('a rotated key names the person and their role, never the key before or after', () => {
		const after = edited((view) => (user(view, 2).apiKey = 'ick-0a0b0c0d-Rot8'));
		const changes = diffViews(production, after);
		expect(brief(changes)).toEqual(['key rotated | hannah.lindqvist@example.com']);
		expect(changes[0]?.role).toBe('operator');
		const text = JSON.stringify(changes);
		expect(text).not.toContain('ick-0a0b0c0d-Rot8');
		expect(text).not.toContain(user(production, 2).apiKey);
	});

	it('a rotated configuration member is named by its member alone, for each member', () => {
		for (const member of CONFIG_MEMBERS) {
			const after = edited((view) => {
				view.config[member] =
					member === 'api_key'
						? 'ick-00112233-Cfg1'
						: member === 'database_url'
							? 'postgresql://other@db.production.example:5432/console_other'
							: member === 'redis_url'
								? 'redis://:NewPassword99@cache.production.example:6379/0'
								: `rotated-${member}-value`;
			});
			const changes = diffViews(production, after);
			expect(changes).toEqual([{ kind: 'configuration rotated', field: member }]);
			const text = JSON.stringify(changes) + describeChange(changes[0] ?? { kind: 'granted' });
			for (const secret of secretsOf(production, after)) expect(text).not.toContain(secret);
		}
	});

	it('a new name under the same email is a name change', () => {
		const after = edited((view) => (user(view, 0).name = 'Amara O. Okafor'));
		expect(brief(diffViews(production, after))).toEqual([
			'name changed | amara.okafor@example.com | Amara Okafor | Amara O. Okafor',
		]);
	});

	it('a new email under the same name and key is an email change, the key kept', () => {
		const after = edited((view) => (user(view, 4).email = 'lukas.brandt2@example.com'));
		const changes = diffViews(production, after);
		expect(brief(changes)).toEqual([
			'email changed | lukas.brandt2@example.com | lukas.brandt@example.com | lukas.brandt2@example.com',
		]);
		expect(changes[0]?.previousKey).toBe('lukas.brandt@example.com');
	});

	it('a new email and key under a name no one else has is an email change and a rotated key', () => {
		const after = edited((view) => {
			user(view, 4).email = 'l.brandt@example.com';
			user(view, 4).apiKey = 'ick-44445555-NewK';
		});
		expect(brief(diffViews(production, after))).toEqual([
			'email changed | l.brandt@example.com | lukas.brandt@example.com | l.brandt@example.com',
			'key rotated | l.brandt@example.com',
		]);
	});

	it('a new email in another case is an email change of the same person', () => {
		const after = edited((view) => (user(view, 5).email = 'Mateo.Alvarez@example.com'));
		const changes = diffViews(production, after);
		expect(brief(changes)).toEqual([
			'email changed | Mateo.Alvarez@example.com | mateo.alvarez@example.com | Mateo.Alvarez@example.com',
		]);
		expect(changes[0]?.person?.key).toBe('mateo.alvarez@example.com');
	});

	it('a new name and email on an old key is another person: one revoked, one granted', () => {
		const after = edited((view) => {
			user(view, 7).name = 'Rosa Jiménez';
			user(view, 7).email = 'rosa.jimenez@example.com';
		});
		expect(brief(diffViews(production, after))).toEqual([
			'granted | rosa.jimenez@example.com | viewer',
			'revoked | owen.gallagher@example.com | viewer',
		]);
	});

	it('two new entries of one name are not guessed to be the removed person of that name', () => {
		const after = edited((view) => {
			user(view, 6).email = 'kenji.w@example.com';
			user(view, 6).apiKey = 'ick-66667777-Ken1';
			user(view, 7).name = 'Kenji Watanabe';
			user(view, 7).email = 'kenji.watanabe2@example.com';
		});
		expect(brief(diffViews(production, after))).toEqual([
			'granted | kenji.w@example.com | operator',
			'granted | kenji.watanabe2@example.com | viewer',
			'revoked | kenji.watanabe@example.com | operator',
			'revoked | owen.gallagher@example.com | viewer',
		]);
	});

	it('labels, base URL and status note changes come first, each label by name with both values', () => {
		const after = edited((view) => {
			view.name = 'production · Main';
			view.environment = 'production-eu';
			delete view.configuration;
			view.apiVersion = 'v6.0';
			view.baseUrl = 'http://198.51.100.7:8443';
			view.statusNote = 'A new note.';
			user(view, 3).role = 'operator';
		});
		expect(brief(diffViews(production, after))).toEqual([
			'label changed | name | production · Main',
			'label changed | environment | production | production-eu',
			'label changed | configuration | Production',
			'label changed | apiVersion | v5.8 | v6.0',
			'base URL changed | http://203.0.113.24:8443 | http://198.51.100.7:8443',
			'status note changed',
			'role changed | fatima.zahra.idrissi@example.com | viewer | operator',
		]);
	});

	it('a view with no version before grants everyone, and with none after revokes everyone', () => {
		expect(brief(diffViews(undefined, production))).toEqual(
			production.users.map((each) => `granted | ${each.email} | ${each.role}`),
		);
		expect(brief(diffViews(production, undefined))).toEqual(
			production.users.map((each) => `revoked | ${each.email} | ${each.role}`),
		);
	});
});

describe('a change in words', () => {
	it('says what changed without any secret', () => {
		expect(describeChange({ kind: 'role changed', from: 'deployer', to: 'admin' })).toBe(
			'Role changed: deployer → admin',
		);
		expect(describeChange({ kind: 'key rotated', role: 'viewer' })).toBe('Key rotated (viewer)');
		expect(describeChange({ kind: 'configuration rotated', field: 'jwt_secret' })).toBe(
			'Configuration member jwt_secret rotated',
		);
		expect(describeChange({ kind: 'view renamed', from: 'a', to: 'b' })).toBe(
			'File renamed: a.json → b.json',
		);
		expect(
			describeChange({
				kind: 'label changed',
				field: 'configuration',
				from: 'Edge',
				to: undefined,
			}),
		).toBe('Configuration label changed: “Edge” → none');
	});

	it('counts only changes to a person as access changes, and a role change for both roles', () => {
		expect(isAccessChange({ kind: 'granted' })).toBe(true);
		expect(isAccessChange({ kind: 'configuration rotated' })).toBe(false);
		expect(rolesOf({ kind: 'role changed', from: 'viewer', to: 'admin' })).toEqual([
			'admin',
			'viewer',
		]);
		expect(rolesOf({ kind: 'key rotated', role: 'operator' })).toEqual(['operator']);
	});

	it('names the commit at which a version is unreadable, and its fields, never their values', () => {
		const commit = { hash: 'a'.repeat(40), short: 'aaaaaaa', date: '', author: '', subject: '' };
		expect(describeChange({ kind: 'unreadable', field: 'users[0].apiKey, config', commit })).toBe(
			'Unreadable at aaaaaaa: the view schema refuses users[0].apiKey, config today; the next readable version is compared with the last readable one',
		);
	});

	it('cuts a long commit subject with an ellipsis, and leaves a short one', () => {
		expect(shortSubject('Short', 10)).toBe('Short');
		expect(shortSubject('A subject that runs on', 10)).toBe('A subject…');
	});
});

/** A readable version of a view. */
function version(view: View): FixtureVersion {
	return { readable: true, view };
}

let commits = 0;

/** A commit of the given file changes, dated a day apart from the previous one. */
function commit(files: FixtureCommit['files'], boundary = false): FixtureCommit {
	commits += 1;
	const hash = commits.toString(16).padStart(40, '0');
	return {
		hash,
		short: hash.slice(-7),
		date: new Date(Date.UTC(2026, 9, commits)).toISOString(),
		author: `Author ${commits}`,
		subject: `Commit ${commits}`,
		boundary,
		files,
	};
}

describe('the walk through the commits', () => {
	const staging = edited((view) => {
		view.environment = 'staging';
		view.config.api_key = 'ick-99990000-Stg1';
		view.users.forEach((each, index) => (each.apiKey = `ick-9999000${index}-Stg${index}`));
	});
	const promoted = edited((view) => (user(view, 1).role = 'admin'));
	const rotated = edited((view) => (user(view, 0).apiKey = 'ick-12121212-Rot1'), promoted);
	const history = [
		commit([
			{
				status: 'added',
				fromSlug: undefined,
				toSlug: 'production',
				before: undefined,
				after: version(production),
			},
			{
				status: 'added',
				fromSlug: undefined,
				toSlug: 'staging',
				before: undefined,
				after: version(staging),
			},
		]),
		commit([
			{
				status: 'modified',
				fromSlug: 'production',
				toSlug: 'production',
				before: version(production),
				after: version(promoted),
			},
		]),
		commit([
			{
				status: 'modified',
				fromSlug: 'production',
				toSlug: 'production',
				before: version(promoted),
				after: { readable: false, fields: ['users[0].apiKey'] },
			},
		]),
		commit([
			{
				status: 'renamed',
				fromSlug: 'production',
				toSlug: 'production-main',
				before: { readable: false, fields: ['users[0].apiKey'] },
				after: version(rotated),
			},
		]),
		commit([
			{
				status: 'removed',
				fromSlug: 'staging',
				toSlug: undefined,
				before: version(staging),
				after: undefined,
			},
		]),
	];
	const walked = buildHistory(history);

	it('tells each commit its changes, oldest first, each with its commit, view and environment', () => {
		const told = walked.entries.map(
			(entry) =>
				`${entry.commit.subject} ${entry.slug} ${entry.environment}: ${brief([entry])[0] ?? ''}`,
		);
		expect(told).toEqual([
			'Commit 1 production production: view added | production',
			...production.users.map(
				(each) => `Commit 1 production production: granted | ${each.email} | ${each.role}`,
			),
			'Commit 1 staging staging: view added | staging',
			...staging.users.map(
				(each) => `Commit 1 staging staging: granted | ${each.email} | ${each.role}`,
			),
			'Commit 2 production production: role changed | priya.raman@example.com | deployer | admin',
			'Commit 3 production production: unreadable | users[0].apiKey',
			'Commit 4 production-main production: view renamed | production | production-main',
			'Commit 4 production-main production: key rotated | amara.okafor@example.com',
			'Commit 5 staging staging: view removed | staging',
			...staging.users.map(
				(each) => `Commit 5 staging staging: revoked | ${each.email} | ${each.role}`,
			),
		]);
		expect(walked.entries.map((entry) => entry.order)).toEqual(
			walked.entries.map((_, index) => index),
		);
	});

	it('keeps a renamed view on its line, and gives another view another', () => {
		const lineOf = (subject: string, slug: string) =>
			walked.entries.find((entry) => entry.commit.subject === subject && entry.slug === slug)?.line;
		expect(lineOf('Commit 4', 'production-main')).toBe(lineOf('Commit 1', 'production'));
		expect(lineOf('Commit 1', 'staging')).not.toBe(lineOf('Commit 1', 'production'));
		expect([...walked.lines.keys()]).toEqual(['production-main']);
		expect(walked.lines.get('production-main')).toBe(lineOf('Commit 1', 'production'));
	});

	it("counts each commit's change to who holds which role where", () => {
		expect(walked.deltas.map(({ commit: info }) => info.subject)).toEqual([
			'Commit 1',
			'Commit 2',
			'Commit 5',
		]);
		expect(walked.deltas[1]?.deltas).toEqual(
			new Map([
				[accessKey('production', 'priya.raman@example.com', 'deployer'), -1],
				[accessKey('production', 'priya.raman@example.com', 'admin'), 1],
			]),
		);
		expect(walked.counts).toEqual(accessCounts([rotated]));
	});

	it('holds no key or configuration value of any version', () => {
		const text = JSON.stringify([...walked.entries, ...walked.people]);
		for (const secret of secretsOf(production, staging, promoted, rotated)) {
			expect(text).not.toContain(secret);
		}
	});

	it("takes a shallow clone's boundary commit as where history starts, not as views added", () => {
		const shallow = buildHistory([
			commit(
				[
					{
						status: 'added',
						fromSlug: undefined,
						toSlug: 'production',
						before: undefined,
						after: version(production),
					},
				],
				true,
			),
			commit([
				{
					status: 'modified',
					fromSlug: 'production',
					toSlug: 'production',
					before: version(production),
					after: version(promoted),
				},
			]),
		]);
		expect(brief(shallow.entries)).toEqual([
			'role changed | priya.raman@example.com | deployer | admin',
		]);
		expect(shallow.counts).toEqual(accessCounts([promoted]));
	});

	it('compares a change beyond where history starts with the version before it, as the commit gives it', () => {
		const beyond = buildHistory([
			commit([
				{
					status: 'modified',
					fromSlug: 'production',
					toSlug: 'production',
					before: version(production),
					after: version(promoted),
				},
			]),
		]);
		expect(brief(beyond.entries)).toEqual([
			'role changed | priya.raman@example.com | deployer | admin',
		]);
	});
});

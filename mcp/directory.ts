/**
 * What `list_views` and `who_holds` answer, as pure functions of the views and people without
 * secrets: the views by environment, and who holds a role. They need neither the contract nor the
 * pages' Markdown, so the first answer of an assistant's session loads neither. Bad input throws a
 * `ToolInputError` whose one line names the input and what was expected.
 */
import { ROLES, type Role } from '../src/schemas/view.ts';
import { markdownHref, personHref, viewHref } from '../src/shared/urls.ts';
import { emailKey } from '../src/shared/person-key.ts';
import type { PortalDirectory } from './portal.ts';
import { ToolInputError } from './tool-names.ts';

/** One view as `list_views` gives it. */
export interface ListedView {
	slug: string;
	name: string;
	environment: string;
	configuration: string | null;
	apiVersion: string | null;
	lastUpdated: string;
	href: string;
	markdown: string;
}

/** The views, by environment when one is given, in the order the pages list them. */
export function listViews(portal: PortalDirectory, environment?: string): ListedView[] {
	const environments = [...new Set(portal.views.map((view) => view.environment))];
	if (environment !== undefined && !environments.includes(environment)) {
		throw new ToolInputError(
			`environment "${environment}": no view is in it; expected one of ${environments.join(', ')}`,
		);
	}
	return portal.views
		.filter((view) => environment === undefined || view.environment === environment)
		.map((view) => ({
			slug: view.slug,
			name: view.name,
			environment: view.environment,
			configuration: view.configuration ?? null,
			apiVersion: view.apiVersion ?? null,
			lastUpdated: view.lastUpdated,
			href: viewHref(view.slug),
			markdown: markdownHref(viewHref(view.slug)),
		}));
}

/** One role held in one view. */
export interface Holding {
	name: string;
	email: string;
	role: Role;
	environment: string;
	view: string;
	slug: string;
	person: string;
}

/** A role, or an error naming the input. */
export function roleOf(role: string): Role {
	if ((ROLES as readonly string[]).includes(role)) return role as Role;
	throw new ToolInputError(`role "${role}": expected one of ${ROLES.join(', ')}`);
}

/**
 * Who holds a role (in an environment, or in any), or every role one person (by email) holds,
 * one row per view, in the order the pages list views.
 */
export function whoHolds(
	portal: PortalDirectory,
	query: {
		role?: string | undefined;
		environment?: string | undefined;
		email?: string | undefined;
	},
): Holding[] {
	if (query.role === undefined && query.email === undefined) {
		throw new ToolInputError(
			'role or email: expected a role (with an environment or not) or a person’s email',
		);
	}
	const role = query.role === undefined ? undefined : roleOf(query.role);
	const environments = new Set(portal.views.map((view) => view.environment));
	if (query.environment !== undefined && !environments.has(query.environment)) {
		throw new ToolInputError(
			`environment "${query.environment}": no view is in it; expected one of ${[...environments].join(', ')}`,
		);
	}
	const people =
		query.email === undefined
			? portal.people
			: portal.people.filter((person) => person.key === emailKey(query.email ?? ''));
	if (query.email !== undefined && people.length === 0) {
		throw new ToolInputError(`email "${query.email}": no person of any view has this email`);
	}
	const rows: Holding[] = [];
	for (const view of portal.views) {
		if (query.environment !== undefined && view.environment !== query.environment) continue;
		for (const user of view.users) {
			if (role !== undefined && user.role !== role) continue;
			const person = people.find((candidate) => candidate.slug === user.personSlug);
			if (!person) continue;
			rows.push({
				name: user.name,
				email: user.email,
				role: user.role,
				environment: view.environment,
				view: view.name,
				slug: view.slug,
				person: personHref(user.personSlug),
			});
		}
	}
	return rows;
}

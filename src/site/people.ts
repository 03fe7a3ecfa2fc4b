/**
 * People across views. A person is an email address, matched without regard to case (as the
 * compare page matches directories); their views, roles and the name the portal gives them are
 * read from every directory they appear in. Keys never enter a person: only names, emails and
 * roles do.
 *
 * When an email appears under different names (or spellings of the email), the portal shows the
 * most common one; a tie goes to the one in the most recently updated view. The other names are
 * listed as names the person also appears under.
 */
import { ROLES, type Role, type View } from '../schemas/view.ts';
import { compareViews, viewName } from '../shared/views.ts';
import { emailKey, personSlug } from '../shared/person-key.ts';

export { emailKey, personSlug } from '../shared/person-key.ts';

/** One view a person appears in, with the role and the name and email as that directory gives them. */
export interface Membership {
	/** The view's slug: its page is `/views/<slug>/`. */
	slug: string;
	/** The view's unique name. */
	view: string;
	environment: string;
	configuration: string | undefined;
	role: Role;
	/** The person's name in this view's directory. */
	name: string;
	/** The person's email as this view's directory spells it. */
	email: string;
	/** When the view was last updated. */
	lastUpdated: string;
}

/** A person: everything the portal shows about one email address. */
export interface Person {
	/** The email in lower case, which identifies the person. */
	key: string;
	/** Their page's slug: `/people/<slug>/`. */
	slug: string;
	/** The name shown: the most common one, ties to the most recently updated view. */
	name: string;
	/** The other names their directories give them, most common first. */
	otherNames: string[];
	/** The email shown, chosen among its spellings as the name is. */
	email: string;
	/** Every view they appear in, in the order the portal lists views. */
	memberships: Membership[];
	/** How many of their views give each role, for the roles they hold (in the roles' order). */
	roles: { role: Role; views: number }[];
}

/** Whether a person holds different roles in different views. */
export function roleDiffers(person: Pick<Person, 'roles'>): boolean {
	return person.roles.length > 1;
}

/**
 * The value most often seen among the memberships, ties going to the most recently updated view
 * (then to the later view in listing order, so the choice never depends on file order), and the
 * other values, most common first.
 */
function mostCommon(
	memberships: readonly Membership[],
	read: (membership: Membership) => string,
): { chosen: string; others: string[] } {
	const seen = new Map<string, { count: number; latest: string }>();
	for (const membership of memberships) {
		const value = read(membership);
		const entry = seen.get(value);
		if (!entry) seen.set(value, { count: 1, latest: membership.lastUpdated });
		else {
			entry.count += 1;
			if (membership.lastUpdated > entry.latest) entry.latest = membership.lastUpdated;
		}
	}
	const ranked = [...seen].sort(
		([a, x], [b, y]) =>
			y.count - x.count ||
			(x.latest < y.latest ? 1 : x.latest > y.latest ? -1 : a.localeCompare(b)),
	);
	const [first, ...rest] = ranked.map(([value]) => value);
	if (first === undefined) throw new Error('A person with no views; none should be built');
	return { chosen: first, others: rest };
}

/** People's names in the order the portal lists them: by name, ignoring case and accents. */
const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/** Orders people by name (case and accents aside), then by email, so the order is always the same. */
export function comparePeople(a: Person, b: Person): number {
	return byName.compare(a.name, b.name) || a.key.localeCompare(b.key);
}

/** Builds every person from a set of views: one per email, in name order. */
export function buildPeople(entries: readonly { slug: string; view: View }[]): Person[] {
	const byEmail = new Map<string, Membership[]>();
	for (const entry of [...entries].sort(compareViews)) {
		const { slug, view } = entry;
		const name = viewName(view);
		for (const user of view.users) {
			const key = emailKey(user.email);
			const membership: Membership = {
				slug,
				view: name,
				environment: view.environment,
				configuration: view.configuration,
				role: user.role,
				name: user.name,
				email: user.email,
				lastUpdated: view.lastUpdated,
			};
			const list = byEmail.get(key);
			if (list) list.push(membership);
			else byEmail.set(key, [membership]);
		}
	}
	const people = [...byEmail].map(([key, memberships]): Person => {
		const names = mostCommon(memberships, (membership) => membership.name);
		const roles = ROLES.map((role) => ({
			role,
			views: memberships.filter((membership) => membership.role === role).length,
		})).filter(({ views }) => views > 0);
		return {
			key,
			slug: personSlug(key),
			name: names.chosen,
			otherNames: names.others,
			email: mostCommon(memberships, (membership) => membership.email).chosen,
			memberships,
			roles,
		};
	});
	return people.sort(comparePeople);
}

/** A person's views in one environment. */
export interface EnvironmentGroup {
	environment: string;
	memberships: Membership[];
	/** How many of these views give each role, for the roles held here. */
	roles: { role: Role; views: number }[];
}

/** A person's views grouped by environment, environments in the order views are listed. */
export function byEnvironment(memberships: readonly Membership[]): EnvironmentGroup[] {
	const groups = new Map<string, Membership[]>();
	for (const membership of memberships) {
		const list = groups.get(membership.environment);
		if (list) list.push(membership);
		else groups.set(membership.environment, [membership]);
	}
	return [...groups].map(([environment, list]) => ({
		environment,
		memberships: list,
		roles: ROLES.map((role) => ({
			role,
			views: list.filter((membership) => membership.role === role).length,
		})).filter(({ views }) => views > 0),
	}));
}

/** "admin in 2 views, viewer in 1": the roles a person holds and in how many views. */
export function describeRoles(roles: readonly { role: Role; views: number }[]): string {
	return roles
		.map(({ role, views }, index) =>
			index === 0 ? `${role} in ${views} ${views === 1 ? 'view' : 'views'}` : `${role} in ${views}`,
		)
		.join(', ');
}

/** One person holding one role in one environment, in so many of its views. */
export interface AccessEntry {
	environment: string;
	role: Role;
	slug: string;
	name: string;
	email: string;
	views: number;
}

/**
 * Who holds which role where: one entry per person, environment and role they hold there,
 * ordered by environment (as views are listed), role, then person. Its size grows with people
 * and environments, never with the number of views.
 */
export function accessEntries(people: readonly Person[]): AccessEntry[] {
	const entries: AccessEntry[] = [];
	for (const person of people) {
		for (const group of byEnvironment(person.memberships)) {
			for (const { role, views } of group.roles) {
				entries.push({
					environment: group.environment,
					role,
					slug: person.slug,
					name: person.name,
					email: person.email,
					views,
				});
			}
		}
	}
	// A stable sort: within an environment and role, people stay in name order.
	return entries.sort(
		(a, b) =>
			a.environment.localeCompare(b.environment) || ROLES.indexOf(a.role) - ROLES.indexOf(b.role),
	);
}

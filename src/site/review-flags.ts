/**
 * Review flags: what an access review should look at twice, read from the directories as they are
 * now. Each flag has its rule in words, shown beside it, and findings that link to the directory
 * rows they concern. The flags that need the fixtures' git history (a key not rotated for 90 days,
 * a view whose directory did not change for 180 days while the others did) take the same shape,
 * `ReviewFlag`, and join these in the list the access overview shows.
 */
import { ROLES } from '../schemas/view.ts';
import { directoryRowHref, personHref, reviewFlagHref } from '../shared/urls.ts';
import { byEnvironment, type Membership, type Person } from './people.ts';

/** One directory row a finding concerns: a view, linked to the person's row in its directory. */
export interface FlaggedRow {
	/** The view's name. */
	view: string;
	/** The row's address: the view's page, at the person's row. */
	href: string;
}

/** The rows of a finding that share what differs: one name, or one role. */
export interface FlagGroup {
	/** What these rows say: a name (`“A. Okafor”`) or a role (`deployer`). */
	label: string;
	/** The first few rows; `more` says how many others there are. */
	rows: FlaggedRow[];
	/** How many rows there are beyond `rows`, on the subject's page. */
	more: number;
}

/** One thing a flag found: a person (or, for the history flags, a view), with the rows concerned. */
export interface FlagFinding {
	/** What is flagged, linked to its page. */
	subject: { label: string; href: string };
	/** A few words that place it: the person's email, or the environment. */
	context: string;
	/** The rows concerned, grouped by what differs between them. */
	groups: FlagGroup[];
}

/** A review flag: its rule and what it found. */
export interface ReviewFlag {
	/** Its address's last segment, e.g. `several-names`. */
	id: string;
	/** What it flags, as a heading. */
	title: string;
	/** The rule, as written beside the flag. */
	rule: string;
	/** Its page, listing every finding. */
	href: string;
	/** Every finding, in the order the portal lists people. */
	findings: FlagFinding[];
}

/** How many rows of one name or role a finding lists; its subject's page has the others. */
export const ROWS_PER_GROUP = 3;

/** How many findings of a flag the access overview lists before it links to the flag's page. */
export const FINDINGS_ON_OVERVIEW = 5;

/** How many findings a page of one flag lists. */
export const FINDINGS_PER_PAGE = 50;

/** The flag for an email that directories give more than one name. */
export const SEVERAL_NAMES = {
	id: 'several-names',
	title: 'One email under several names',
	rule: 'Flagged when the directories give one email address (in any case) more than one name. Names are compared exactly, so a difference in case, accents or initials counts. The person’s page shows the name most of their views give.',
} as const;

/** The flag for a person whose role differs between views of one environment. */
export const ROLE_DIFFERS = {
	id: 'role-differs',
	title: 'Role differs within an environment',
	rule: 'Flagged when a person (one email, in any case) holds one role in some views of an environment and another role in other views of the same environment. Different roles in different environments are not flagged.',
} as const;

/** Memberships grouped by a label, in first-seen order, each group's rows bounded. */
function groupRows(
	memberships: readonly Membership[],
	labelOf: (membership: Membership) => string,
	personSlug: string,
): FlagGroup[] {
	const groups = new Map<string, Membership[]>();
	for (const membership of memberships) {
		const label = labelOf(membership);
		const list = groups.get(label);
		if (list) list.push(membership);
		else groups.set(label, [membership]);
	}
	return [...groups].map(([label, list]) => ({
		label,
		rows: list.slice(0, ROWS_PER_GROUP).map((membership) => ({
			view: membership.view,
			href: directoryRowHref(membership.slug, personSlug),
		})),
		more: Math.max(0, list.length - ROWS_PER_GROUP),
	}));
}

/** People whose directories give them more than one name, each name with its rows. */
export function severalNames(people: readonly Person[]): ReviewFlag {
	const findings = people
		.filter((person) => person.otherNames.length > 0)
		.map((person) => {
			// The name shown first, then the others, most common first.
			const order = [person.name, ...person.otherNames];
			const memberships = [...person.memberships].sort(
				(a, b) => order.indexOf(a.name) - order.indexOf(b.name),
			);
			return {
				subject: { label: person.name, href: personHref(person.slug) },
				context: person.email,
				groups: groupRows(memberships, ({ name }) => `“${name}”`, person.slug),
			};
		});
	return { ...SEVERAL_NAMES, href: reviewFlagHref(SEVERAL_NAMES.id), findings };
}

/** People holding different roles in views of one environment, each role with its rows. */
export function roleDiffers(people: readonly Person[]): ReviewFlag {
	const findings = people.flatMap((person) =>
		byEnvironment(person.memberships)
			.filter((group) => group.roles.length > 1)
			.map((group) => ({
				subject: { label: person.name, href: personHref(person.slug) },
				context: group.environment,
				groups: groupRows(
					[...group.memberships].sort((a, b) => ROLES.indexOf(a.role) - ROLES.indexOf(b.role)),
					({ role }) => role,
					person.slug,
				),
			})),
	);
	return { ...ROLE_DIFFERS, href: reviewFlagHref(ROLE_DIFFERS.id), findings };
}

/** The review flags read from the directories as they are now, in the order the overview shows them. */
export function reviewFlags(people: readonly Person[]): ReviewFlag[] {
	return [severalNames(people), roleDiffers(people)];
}

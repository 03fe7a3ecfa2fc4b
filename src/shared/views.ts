/** Small questions asked of views by several pages. */
import type { User, View } from '../schemas/view.ts';

/** The directory user whose key the example request uses: the first viewer, the least privilege. */
export function exampleUser(view: View): User {
	const user = view.users.find(({ role }) => role === 'viewer') ?? view.users[0];
	if (!user) throw new Error('A view has no users; the schema should have refused it');
	return user;
}

/**
 * A view's one name, the same in titles, headings, links, search and compare: its `name` field,
 * or else its environment and, when it has one, its configuration label. No two views share it.
 */
export function viewName(view: View): string {
	if (view.name) return view.name;
	return view.configuration ? `${view.environment} · ${view.configuration}` : view.environment;
}

/**
 * A name as a reader sees it: code points drawn as nothing (U+200B ZERO WIDTH SPACE, U+00AD SOFT
 * HYPHEN, …) dropped, compatibility forms folded (NFKC: full-width letters, ligatures) and runs
 * of spaces made one.
 */
export function nameShape(name: string): string {
	return name
		.replace(/\p{Default_Ignorable_Code_Point}/gu, '')
		.normalize('NFKC')
		.replace(/\s+/g, ' ')
		.trim();
}

/** The form of a name two views may not share: its shape, case aside. */
export function nameKey(name: string): string {
	return nameShape(name).toLowerCase();
}

/** Compares text as people read it: numbers in it by value, so `Canary 9` comes before `Canary 10`. */
const reading = new Intl.Collator('en', { numeric: true });

/** Orders entries by environment, then configuration label, then slug. */
export function compareViews(
	a: { slug: string; view: View },
	b: { slug: string; view: View },
): number {
	return (
		reading.compare(a.view.environment, b.view.environment) ||
		reading.compare(a.view.configuration ?? '', b.view.configuration ?? '') ||
		reading.compare(a.slug, b.slug)
	);
}

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

/** The form of a name two views may not share: case, width and runs of spaces aside. */
export function nameKey(name: string): string {
	return name.normalize('NFKC').toLowerCase().replace(/\s+/g, ' ').trim();
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

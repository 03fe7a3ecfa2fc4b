/** The guides' order, shared by the guides' index, their sidebar and their previous/next links. */

/** What the navigation needs of a guide. */
export interface GuideLink {
	id: string;
	title: string;
	/** Where the guide sits; lower comes first. */
	order: number;
}

/** The guides in sidebar order: by `order`, then by title. */
export function sortGuides<G extends { data: Omit<GuideLink, 'id'> }>(guides: readonly G[]): G[] {
	return [...guides].sort(
		(a, b) => a.data.order - b.data.order || a.data.title.localeCompare(b.data.title),
	);
}

/** The guides before and after the one with `id`, in the order given. */
export function guideNeighbours<G extends { id: string }>(
	guides: readonly G[],
	id: string,
): { prev: G | undefined; next: G | undefined } {
	const index = guides.findIndex((guide) => guide.id === id);
	if (index === -1) return { prev: undefined, next: undefined };
	return { prev: guides[index - 1], next: guides[index + 1] };
}

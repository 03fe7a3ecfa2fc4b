/**
 * What a page's "On this page" list shows: its h2 headings, each with the h3 headings under it,
 * from the headings Astro reads from a guide or those the reference page lays out.
 */

/** A heading of a page: its level, its id and its text, as Astro's `render()` gives them. */
export interface PageHeading {
	depth: number;
	slug: string;
	text: string;
}

/** An entry of the "On this page" list: an h2 with the h3 headings that follow it. */
export interface OutlineEntry extends PageHeading {
	children: PageHeading[];
}

/** The h2 and h3 headings as a two-level list; an h3 before any h2 stands at the top level. */
export function pageOutline(headings: readonly PageHeading[]): OutlineEntry[] {
	const outline: OutlineEntry[] = [];
	for (const heading of headings) {
		const { depth, slug, text } = heading;
		const parent = outline.at(-1);
		if (depth === 2 || (depth === 3 && !parent)) outline.push({ depth, slug, text, children: [] });
		else if (depth === 3 && parent) parent.children.push({ depth, slug, text });
	}
	return outline;
}

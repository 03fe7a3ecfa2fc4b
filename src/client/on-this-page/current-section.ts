/**
 * Which section of a page the reader is in, from where its headings are: kept apart from the
 * element (`src/client/on-this-page/on-this-page.ts`) so a unit test can import it.
 */

/**
 * The index of the current section: the last heading at or above the reading line (just under
 * the sticky header), or, at the very end of the page, the last heading in view; the first
 * before any heading reaches the line. -1 when there are no headings.
 */
export function currentSection(
	tops: readonly number[],
	line: number,
	atEnd = false,
	windowHeight = Infinity,
): number {
	let current = tops.length > 0 ? 0 : -1;
	tops.forEach((top, index) => {
		if (top <= line || (atEnd && top < windowHeight)) current = index;
	});
	return current;
}

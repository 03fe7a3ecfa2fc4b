/**
 * `<on-this-page>`: marks the link of the section the reader is in (`aria-current="true"`) as
 * the headings pass the reading line, just under the sticky header where a heading reached by
 * its link stops. Without JavaScript the list is a plain list of links.
 */
import { currentSection } from './current-section.ts';

/** The custom element around the "On this page" list. */
export class OnThisPage extends HTMLElement {
	connectedCallback(): void {
		const links = [...this.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')];
		const sections = links.flatMap((link) => {
			const heading = document.getElementById(decodeURIComponent(link.hash.slice(1)));
			return heading ? [{ link, heading }] : [];
		});
		const first = sections[0]?.heading;
		if (!first) return;
		const line = parseFloat(getComputedStyle(first).scrollMarginTop) + 16;
		const mark = (): void => {
			const root = document.documentElement;
			const index = currentSection(
				sections.map(({ heading }) => heading.getBoundingClientRect().top),
				line,
				scrollY + innerHeight >= root.scrollHeight - 2,
				innerHeight,
			);
			sections.forEach(({ link }, at) => {
				if (at === index) link.setAttribute('aria-current', 'true');
				else link.removeAttribute('aria-current');
			});
		};
		// A heading entering or leaving the window's top band moves the mark as the reader scrolls;
		// the end of a scroll settles it, and catches the last, short sections at the page's end.
		const observer = new IntersectionObserver(mark, { rootMargin: '0px 0px -85% 0px' });
		for (const { heading } of sections) observer.observe(heading);
		addEventListener('scrollend', mark, { passive: true });
	}
}

if (!customElements.get('on-this-page')) customElements.define('on-this-page', OnThisPage);

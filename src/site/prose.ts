/** Plain description text from openapi.yaml, split for rendering without parsing it as HTML. */

/** A run of text, marked when it was between backticks. */
export interface ProsePart {
	text: string;
	code: boolean;
}

/** Splits a description into paragraphs (blank lines), each into text and `code` runs. */
export function proseParagraphs(text: string): ProsePart[][] {
	return text
		.trim()
		.split(/\n\s*\n/)
		.map((paragraph) =>
			paragraph
				.replace(/\s*\n\s*/g, ' ')
				.split('`')
				.map((run, index) => ({ text: run, code: index % 2 === 1 }))
				.filter((run) => run.text !== ''),
		);
}

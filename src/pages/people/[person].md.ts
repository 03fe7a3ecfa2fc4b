/** A person page's Markdown twin: their names, email, and views by environment with their roles. */
import type { APIRoute, GetStaticPaths, InferGetStaticPropsType } from 'astro';
import { markdownResponse } from '../../site/markdown/mdast.ts';
import { personMarkdown } from '../../site/markdown/people.ts';
import { allPeople, personEnvironments } from '../../site/people-collection.ts';

export const getStaticPaths = (async () =>
	(await allPeople()).map((person) => ({
		params: { person: person.slug },
		props: { person },
	}))) satisfies GetStaticPaths;

type Props = InferGetStaticPropsType<typeof getStaticPaths>;

export const GET: APIRoute<Props> = ({ props: { person } }) =>
	markdownResponse(personMarkdown(person, personEnvironments(person)));

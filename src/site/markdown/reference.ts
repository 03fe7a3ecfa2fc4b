/**
 * The API reference's Markdown twin, from the same model as its page: each operation with its
 * security, parameters, responses (headers, body fields, examples) and code samples. A body with
 * one example per view shows the first, as the page does, so the twin does not grow with views;
 * the examples hold names, emails and roles, never a key. The code samples are those of the page,
 * made by the same function from the same request, so the samples test's run of the page's
 * commands covers the twin's.
 */
import type { Paragraph } from 'mdast';
import type { ApiReference, Operation, ResponseHeader, SchemaRow } from '../../sources/openapi.ts';
import { OPENAPI_JSON_HREF, OPENAPI_YAML_HREF } from '../../shared/urls.ts';
import { authHeader, codeSamples } from '../code-samples.ts';
import { proseParagraphs } from '../prose.ts';
import {
	exampleValue,
	firstSchemaUse,
	isPerView,
	operationSample,
	ownHeaders,
	sharedHeaders,
	shownExamples,
} from '../reference-layout.ts';
import {
	bulletList,
	codeBlock,
	heading,
	inlineCode,
	link,
	markdownText,
	paragraph,
	strong,
	table,
	type Inline,
} from './mdast.ts';

/** A description from the contract as paragraphs, its `backticked` runs as code. */
function prose(text: string | undefined): Paragraph[] {
	if (!text?.trim()) return [];
	return proseParagraphs(text).map((parts) =>
		paragraph(...parts.map((part) => (part.code ? inlineCode(part.text) : part.text))),
	);
}

/** A description as one table cell's runs: its paragraphs joined by a space. */
function proseRuns(text: string | undefined): Inline[] {
	if (!text?.trim()) return [];
	return proseParagraphs(text).flatMap((parts, index) => [
		index > 0 ? ' ' : '',
		...parts.map((part) => (part.code ? inlineCode(part.text) : part.text)),
	]);
}

/** A table of response headers: name, whether required, description and examples. */
function headersTable(headers: readonly ResponseHeader[]) {
	return table(
		['Header', 'Required', 'Description and examples'],
		headers.map((header) => [
			[inlineCode(header.name)],
			[header.required ? 'yes' : 'no'],
			[
				...proseRuns(header.description),
				...header.examples.flatMap((example, index) => [
					index === 0 ? (header.description ? ' ' : '') : '; ',
					`${example.summary ?? example.name}: `,
					inlineCode(exampleValue(example.value)),
				]),
			],
		]),
	);
}

/** A body's fields: one row each, with type, whether required, and meaning. */
function schemaTable(rows: readonly SchemaRow[]) {
	return table(
		['Field', 'Type', 'Required', 'Description'],
		rows.map((row) => [
			[inlineCode(row.field)],
			[row.type],
			[row.required ? 'yes' : 'no'],
			[
				row.description,
				...(row.constraints.length > 0 ? [` (${row.constraints.join('; ')})`] : []),
			],
		]),
	);
}

/** One operation: its heading, security, parameters, responses and code samples. */
function operationBlocks(operation: Operation, server: string) {
	const { method, path, responses } = operation;
	const shared = sharedHeaders(responses);
	const firstUse = firstSchemaUse(responses);
	const sample = operationSample(operation, server);
	return [
		heading(2, `${method} `, inlineCode(path)),
		...(operation.summary ? [paragraph(operation.summary)] : []),
		...prose(operation.description),
		heading(3, 'Security'),
		...(operation.security.length === 0
			? [paragraph('No authentication.')]
			: operation.security.flatMap(({ name, scheme }) => {
					const sentAs = authHeader(scheme);
					return [
						paragraph(
							strong(name),
							`: ${scheme.type}`,
							scheme.scheme ? ` ${scheme.scheme}` : '',
							scheme.bearerFormat ? ` (${scheme.bearerFormat})` : '',
							...(sentAs
								? [', sent as ', inlineCode(`${sentAs.header}: ${sentAs.prefix}<key>`)]
								: []),
						),
						...prose(scheme.description),
					];
				})),
		heading(3, 'Parameters'),
		operation.parameters.length === 0
			? paragraph('No parameters.')
			: table(
					['Name', 'In', 'Required', 'Description'],
					operation.parameters.map((parameter) => [
						[inlineCode(parameter.name)],
						[parameter.in],
						[parameter.required ? 'yes' : 'no'],
						[parameter.description ?? ''],
					]),
				),
		heading(3, 'Responses'),
		...(shared.length > 0
			? [paragraph(`Headers every response of ${method} ${path} may carry:`), headersTable(shared)]
			: []),
		...responses.flatMap((response) => {
			const own = ownHeaders(response, shared);
			return [
				heading(4, response.status),
				...prose(response.description),
				...(own.length > 0 ? [headersTable(own)] : []),
				...response.bodies.flatMap((body) => {
					const where = `${response.status} ${body.mediaType}`;
					const fields =
						body.rows.length === 0
							? []
							: !body.schemaName || firstUse.get(body.schemaName) === where
								? [schemaTable(body.rows)]
								: [
										paragraph(
											`Its fields are those of the ${body.schemaName} table under ${firstUse.get(body.schemaName)?.split(' ')[0] ?? ''}.`,
										),
									];
					const perView = isPerView(response.status, body.examples.length);
					return [
						paragraph(
							'Body: ',
							inlineCode(body.mediaType),
							...(body.schemaName ? [', schema ', strong(body.schemaName)] : []),
						),
						...fields,
						...(body.examples.length === 0
							? []
							: [
									paragraph(
										body.examples.length === 1 ? 'Example' : `${body.examples.length} examples`,
										...(perView
											? [
													", one per view, named by its slug; the first is shown here, each view's twin lists its own users, and ",
													link(OPENAPI_JSON_HREF, 'openapi.json'),
													' carries them all:',
												]
											: [':']),
									),
									...shownExamples(body.examples, response.status).flatMap((example) => [
										paragraph(
											inlineCode(example.name),
											...(example.summary ? [`: ${example.summary}`] : []),
										),
										codeBlock(
											exampleValue(example.value),
											typeof example.value === 'string' ? undefined : 'json',
										),
									]),
								]),
					];
				}),
			];
		}),
		heading(3, 'Code samples'),
		...(sample.request.auth
			? [
					paragraph(
						'Set ',
						inlineCode('API_KEY'),
						" to a key from any view's directory first (the keys are on the view pages, never in a twin), e.g. ",
						inlineCode('export API_KEY=ick-…'),
						"; each sample then gets that view's users.",
					),
				]
			: []),
		...codeSamples(sample.request).flatMap((code) => [
			heading(4, code.label),
			codeBlock(code.code, code.language),
		]),
	];
}

/**
 * The reference's twin, for the mock at `server`; `as31` is the address of the contract's OpenAPI
 * 3.1 equivalent, where the build publishes one for a 3.2 contract.
 */
export function referenceMarkdown(api: ApiReference, server: string, as31?: string): string {
	return markdownText([
		heading(1, `${api.title} ${api.version}`),
		...(api.summary ? [paragraph(api.summary)] : []),
		...prose(api.description),
		paragraph(
			`The complete contract${api.openapi ? ` (OpenAPI ${api.openapi})` : ''}, with one example per view: `,
			link(OPENAPI_JSON_HREF, 'openapi.json'),
			' · ',
			link(OPENAPI_YAML_HREF, 'openapi.yaml'),
			...(api.openapi?.startsWith('3.2.')
				? as31
					? [
							'. Tools that read OpenAPI 3.1 only take its 3.1 equivalent, ',
							link(as31, as31.slice(1)),
							', e.g. ',
							inlineCode(`npx prism mock ${as31.slice(1)}`),
							'.',
						]
					: ['. Prism reads OpenAPI 3.1 only; the portal’s own mock serves this 3.2 contract.']
				: ['. Any OpenAPI tool reads it, e.g. ', inlineCode('npx prism mock openapi.json'), '.']),
		),
		heading(2, 'Servers'),
		bulletList(
			api.servers.map((entry) => [
				inlineCode(entry.url),
				...(entry.description ? [': ', ...proseRuns(entry.description)] : []),
			]),
		),
		...api.operations.flatMap((operation) => operationBlocks(operation, server)),
	]);
}

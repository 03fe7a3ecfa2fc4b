/**
 * The API reference's Markdown twin, from the same model as its page: the operations by tag (as
 * OpenAPI 3.2's nested tags file them), and each operation with its security, parameters (a
 * `querystring` one with its media type and fields), request body (its schema, its examples as
 * sent), responses (summary, or the status's reason phrase for one written with no words,
 * headers, body fields, a stream by what each item is, examples named by their form) and code
 * samples. A body with one example per view shows the first, as the page does, so the
 * twin does not grow with views; the examples hold names, emails and roles, never a key. The code
 * samples are those of the page, made by the same function from the same request, so the samples
 * test's run of the page's commands covers the twin's.
 */
import type { Code, List, ListItem, Paragraph } from 'mdast';
import { reasonPhrase } from '../../sources/reason-phrase.ts';
import {
	type ApiReference,
	type NamedExample,
	type Operation,
	type Parameter,
	type RequestBodyModel,
	type ResponseBody,
	type ResponseHeader,
	type SchemaRow,
} from '../../sources/openapi.ts';
import { OPENAPI_JSON_HREF, OPENAPI_YAML_HREF } from '../../shared/urls.ts';
import { authHeader, codeSamples } from '../code-samples.ts';
import { proseParagraphs } from '../prose.ts';
import {
	exampleAsSent,
	exampleForm,
	exampleValue,
	firstSchemaUse,
	isPerView,
	operationSample,
	ownHeaders,
	parameterContent,
	REQUEST_BODY_SECTION,
	sharedHeaders,
	shownExamples,
	streamName,
	tagTree,
	type TagNode,
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

/**
 * A response example as the page shows it: its form when not a plain `value` (OpenAPI 3.2), its
 * value, and a `serializedValue` written beside its `dataValue` after it, as sent.
 */
function exampleBlocks(example: NamedExample): (Paragraph | Code)[] {
	const form = exampleForm(example);
	const language = typeof example.value === 'string' ? undefined : 'json';
	return [
		...(form ? [paragraph(form)] : []),
		codeBlock(exampleValue(example.value), language),
		...(example.field === 'dataValue' && example.serializedValue !== undefined
			? [
					paragraph(exampleForm({ field: 'serializedValue' }) ?? ''),
					codeBlock(example.serializedValue, language),
				]
			: []),
	];
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

/**
 * A body's line: its media type, and its schema's name, or for a stream (OpenAPI 3.2's
 * `itemSchema`) what kind of stream it is and what each item is, e.g. `a stream of JSON lines,
 * each a User`.
 */
function bodyLine(body: ResponseBody): Paragraph {
	const stream = streamName(body.mediaType);
	return paragraph(
		'Body: ',
		inlineCode(body.mediaType),
		...(body.itemized
			? [
					`, ${stream.startsWith('a stream') ? stream : `a stream of ${stream}`}`,
					...(body.schemaName
						? [', each a ', strong(body.schemaName)]
						: body.rows.length > 0
							? [', each item as below']
							: []),
				]
			: body.schemaName
				? [', schema ', strong(body.schemaName)]
				: []),
	);
}

/** Where a parameter goes, as the page says it: a `querystring` one is the whole query string. */
function parameterPlace(parameter: Parameter): Inline[] {
	const content = parameterContent(parameter);
	return [
		parameter.in === 'querystring' ? 'the whole query string' : parameter.in,
		...(content ? [', as ', inlineCode(content.mediaType)] : []),
	];
}

/** An operation's parameters: a table, then the fields of each written as content (a querystring). */
function parametersBlocks(parameters: readonly Parameter[]) {
	if (parameters.length === 0) return [paragraph('No parameters.')];
	return [
		table(
			['Name', 'In', 'Required', 'Description'],
			parameters.map((parameter) => [
				[inlineCode(parameter.name)],
				parameterPlace(parameter),
				[parameter.required ? 'yes' : 'no'],
				[parameter.description ?? ''],
			]),
		),
		...parameters.flatMap((parameter) => {
			const content = parameterContent(parameter);
			if (!content || content.fields.length === 0) return [];
			return [
				paragraph(
					'Fields of ',
					inlineCode(parameter.name),
					' (',
					inlineCode(content.mediaType),
					'):',
				),
				table(
					['Field', 'Type', 'Required', 'Description'],
					content.fields.map((field) => [
						[inlineCode(field.name)],
						[field.type ?? ''],
						[field.required ? 'yes' : 'no'],
						[field.description ?? ''],
					]),
				),
			];
		}),
	];
}

/**
 * What a request sends (a QUERY's filter, say): whether it must, what it is, and for each media
 * type its schema field by field and its examples as the request sends them.
 */
function requestBodyBlocks(body: RequestBodyModel) {
	return [
		heading(3, REQUEST_BODY_SECTION.title),
		paragraph(body.required ? 'Required.' : 'Optional.'),
		...prose(body.description),
		...body.bodies.flatMap((media) => {
			const json = /^application\/(?:[\w.-]+\+)?json$/i.test(media.mediaType);
			return [
				bodyLine(media),
				...(media.rows.length > 0 ? [schemaTable(media.rows)] : []),
				...(media.examples.length === 0
					? []
					: [
							paragraph(
								media.examples.length === 1 ? 'Example' : `${media.examples.length} examples`,
								', as sent:',
							),
							...media.examples.flatMap((example) => [
								paragraph(
									inlineCode(example.name),
									...(example.summary ? [`: ${example.summary}`] : []),
								),
								codeBlock(exampleAsSent(example, json), json ? 'json' : undefined),
							]),
						]),
			];
		}),
	];
}

/** A list item of one paragraph, with a list under it when there is one. */
function listItem(parts: readonly Inline[], under: readonly ListItem[] = []): ListItem {
	const list: List = { type: 'list', ordered: false, spread: false, children: [...under] };
	return {
		type: 'listItem',
		spread: false,
		children: [paragraph(...parts), ...(under.length > 0 ? [list] : [])],
	};
}

/** A tag of the navigation: its summary and name, then its operations and the tags under it. */
function tagItem(tag: TagNode): ListItem {
	return listItem(
		[
			strong(tag.title),
			...(tag.title === tag.name ? [] : [' (tag ', inlineCode(tag.name), ')']),
			...(tag.description ? [': ', ...proseRuns(tag.description)] : []),
		],
		[
			...tag.operations.map((operation) =>
				listItem([
					inlineCode(operation.label),
					...(operation.summary ? [`: ${operation.summary}`] : []),
				]),
			),
			...tag.children.map(tagItem),
		],
	);
}

/**
 * The operations by tag, nested as the tags' parents say (OpenAPI 3.2), as the page's navigation
 * shows them; nothing for a contract whose tags use none of what 3.2 adds.
 */
function tagBlocks(api: ApiReference) {
	const tree = tagTree(api.tags, api.operations);
	if (tree.length === 0) return [];
	const list: List = { type: 'list', ordered: false, spread: false, children: tree.map(tagItem) };
	return [heading(2, 'Operations by tag'), list];
}

/** One operation: its heading, security, parameters, request body, responses and code samples. */
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
		...parametersBlocks(operation.parameters),
		...(operation.requestBody ? requestBodyBlocks(operation.requestBody) : []),
		heading(3, 'Responses'),
		...(shared.length > 0
			? [paragraph(`Headers every response of ${method} ${path} may carry:`), headersTable(shared)]
			: []),
		...responses.flatMap((response) => {
			const own = ownHeaders(response, shared);
			return [
				heading(4, response.status),
				...(response.summary ? [paragraph(response.summary)] : []),
				...prose(response.description),
				// A 3.2 response may be written with neither: the page's closed line is the reason phrase.
				...(response.summary || response.description.trim()
					? []
					: [paragraph(reasonPhrase(response.status))]),
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
						bodyLine(body),
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
										...exampleBlocks(example),
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
		...tagBlocks(api),
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

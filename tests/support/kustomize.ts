/**
 * deploy/kubernetes/ and its overlays rendered as `kubectl kustomize` renders them, for the
 * manifest tests (kubectl need not be installed): the resources' documents and folders (a base,
 * rendered first), the ConfigMaps of configMapGenerator, strategic-merge `patches:`, the image
 * names of `images:`, `replacements:` and the local-config objects they read, left out. It reads
 * only the parts of a kustomization.yaml the portal uses, and refuses any other, so a field added
 * there fails the test until this reader follows it.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { parseAllDocuments, parse } from 'yaml';
import { z } from 'zod';

const kustomizationSchema = z.strictObject({
	apiVersion: z.literal('kustomize.config.k8s.io/v1beta1'),
	kind: z.literal('Kustomization'),
	resources: z.array(z.string()).min(1),
	images: z
		.array(z.strictObject({ name: z.string(), newName: z.string(), newTag: z.string() }))
		.default([]),
	configMapGenerator: z
		.array(z.strictObject({ name: z.string(), files: z.array(z.string()).min(1) }))
		.default([]),
	generatorOptions: z.strictObject({ disableNameSuffixHash: z.boolean() }).optional(),
	/** Strategic-merge patches, each naming its target by its own kind and name. */
	patches: z.array(z.strictObject({ path: z.string() })).default([]),
	replacements: z
		.array(
			z.strictObject({
				source: z.strictObject({ kind: z.string(), name: z.string(), fieldPath: z.string() }),
				targets: z
					.array(
						z.strictObject({
							select: z.strictObject({ kind: z.string(), name: z.string() }),
							fieldPaths: z.array(z.string()).min(1),
							options: z
								.strictObject({ delimiter: z.string().min(1), index: z.number().int() })
								.optional(),
						}),
					)
					.min(1),
			}),
		)
		.default([]),
});

/** A kustomization.yaml, as read. */
export type Kustomization = z.infer<typeof kustomizationSchema>;

/** A Kubernetes object, as far as the reader needs to know it. */
export interface KubernetesObject {
	apiVersion: string;
	kind: string;
	metadata: { name: string; [key: string]: unknown };
	[key: string]: unknown;
}

const objectSchema = z.looseObject({
	apiVersion: z.string(),
	kind: z.string(),
	metadata: z.looseObject({ name: z.string() }),
});

/** Reads and checks a kustomization.yaml; throws naming the file and each field it cannot read. */
export async function readKustomization(folder: string): Promise<Kustomization> {
	const file = path.join(folder, 'kustomization.yaml');
	const result = kustomizationSchema.safeParse(parse(await readFile(file, 'utf8')));
	if (!result.success) {
		const problems = result.error.issues.map(
			(issue) => `${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`,
		);
		throw new Error(problems.join('\n'));
	}
	return result.data;
}

/** The image a container names once `images:` has renamed it. */
function renamed(image: string, images: Kustomization['images']): string {
	const name = image.replace(/[:@].*$/, '');
	const entry = images.find((candidate) => candidate.name === name);
	return entry ? `${entry.newName}:${entry.newTag}` : image;
}

/** Renames the images of every container and init container of a workload's pod template. */
function renameImages(object: KubernetesObject, images: Kustomization['images']): void {
	const spec = (object['spec'] as { template?: { spec?: Record<string, unknown> } } | undefined)
		?.template?.spec;
	for (const list of ['containers', 'initContainers']) {
		for (const container of (spec?.[list] as { image?: string }[] | undefined) ?? []) {
			if (container.image !== undefined) container.image = renamed(container.image, images);
		}
	}
}

/** The documents of one YAML file, each checked to be a Kubernetes object. */
async function readObjects(file: string): Promise<KubernetesObject[]> {
	const objects: KubernetesObject[] = [];
	for (const [index, document] of parseAllDocuments(await readFile(file, 'utf8')).entries()) {
		if (document.errors.length > 0) {
			throw new Error(`${file}, document ${index + 1}: ${document.errors[0]?.message ?? ''}`);
		}
		const result = objectSchema.safeParse(document.toJS());
		if (!result.success) {
			throw new Error(
				`${file}, document ${index + 1}: expected a Kubernetes object with apiVersion, kind and metadata.name`,
			);
		}
		objects.push(result.data);
	}
	return objects;
}

/**
 * The lists a strategic-merge patch merges item by item, matched on `name` (their patchMergeKey
 * in Kubernetes' schemas); a patch of any other list is refused, since its merge rule differs.
 */
const MERGED_BY_NAME = new Set(['containers', 'initContainers', 'env', 'volumes', 'volumeMounts']);

const isRecord = (value: unknown): value is Record<string, unknown> =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A strategic merge of `patch` into `base`, as kustomize gives it: maps merged key by key (null
 * deletes), the lists above merged by name with the patch's new items first, any scalar replaced.
 */
function mergePatch(base: unknown, patch: unknown, where: string): unknown {
	if (isRecord(patch)) {
		const merged: Record<string, unknown> = isRecord(base) ? { ...base } : {};
		for (const [key, value] of Object.entries(patch)) {
			if (value === null) delete merged[key];
			else merged[key] = mergePatch(merged[key], value, `${where}.${key}`);
		}
		return merged;
	}
	if (Array.isArray(patch)) {
		const changes = patch as unknown[];
		const key = where.slice(where.lastIndexOf('.') + 1);
		if (!MERGED_BY_NAME.has(key) || !changes.every((item) => isRecord(item) && 'name' in item)) {
			throw new Error(`${where}: a patch of this list is one this reader does not merge`);
		}
		const items = Array.isArray(base) ? (base as unknown[]) : [];
		const nameOf = (item: unknown): unknown => (isRecord(item) ? item['name'] : undefined);
		const added = changes.filter((item) => !items.some((old) => nameOf(old) === nameOf(item)));
		const kept = items.map((old) => {
			const change = changes.find((item) => nameOf(item) === nameOf(old));
			return change === undefined
				? old
				: mergePatch(old, change, `${where}[${String(nameOf(old))}]`);
		});
		return [...added, ...kept];
	}
	return patch;
}

/** A replacement's field path split into its steps: `a.0.[name=web].b` is a, 0, [name=web], b. */
function fieldSteps(fieldPath: string): string[] {
	return fieldPath.match(/\[[^\]]*\]|[^.]+/g) ?? [];
}

/** The value a step leads to in `node`: a key, a list index, or the list item `[key=value]`. */
function step(node: unknown, part: string): unknown {
	const select = /^\[([^=\]]+)=([^\]]*)\]$/.exec(part);
	if (select) {
		const [, key = '', value] = select;
		return Array.isArray(node)
			? node.find((item) => isRecord(item) && item[key] === value)
			: undefined;
	}
	if (Array.isArray(node) && /^\d+$/.test(part)) return node[Number(part)];
	return isRecord(node) ? node[part] : undefined;
}

/** Sets the field a replacement names, as kustomize does; fails when it is missing. */
function replaceField(
	object: KubernetesObject,
	fieldPath: string,
	value: string,
	options: { delimiter: string; index: number } | undefined,
): void {
	const steps = fieldSteps(fieldPath);
	const last = steps.pop() ?? '';
	const parent = steps.reduce<unknown>((node, part) => step(node, part), object);
	const current = step(parent, last);
	const where = `${object.kind} ${object.metadata.name}: ${fieldPath}`;
	if (typeof current === 'number' && options === undefined && /^\d+$/.test(value)) {
		// kustomize 4.5 and later keep a field's type: a number field gets the string as a number.
		if (Array.isArray(parent)) parent[Number(last)] = Number(value);
		else if (isRecord(parent)) parent[last] = Number(value);
		return;
	}
	if (typeof current !== 'string' || (!isRecord(parent) && !Array.isArray(parent))) {
		throw new Error(`${where}: no string field there to replace`);
	}
	let next = value;
	if (options) {
		// kustomize's rule: a negative index puts the value first, one past the end puts it last.
		const parts = current.split(options.delimiter);
		if (options.index < 0) parts.unshift(value);
		else if (options.index >= parts.length) parts.push(value);
		else parts[options.index] = value;
		next = parts.join(options.delimiter);
	}
	if (Array.isArray(parent)) parent[Number(last)] = next;
	else parent[last] = next;
}

/** Copies each replacement's source field into its targets' fields. */
function applyReplacements(
	objects: KubernetesObject[],
	replacements: Kustomization['replacements'],
	file: string,
): void {
	const named = (kind: string, name: string): KubernetesObject[] =>
		objects.filter((object) => object.kind === kind && object.metadata.name === name);
	for (const { source, targets } of replacements) {
		const [from] = named(source.kind, source.name);
		const value = fieldSteps(source.fieldPath).reduce<unknown>(
			(node, part) => step(node, part),
			from,
		);
		if (typeof value !== 'string') {
			throw new Error(
				`${file}: replacement source ${source.kind} ${source.name} has no string at ${source.fieldPath}`,
			);
		}
		for (const { select, fieldPaths, options } of targets) {
			const found = named(select.kind, select.name);
			if (found.length === 0) {
				throw new Error(
					`${file}: replacement target ${select.kind} ${select.name} is not rendered`,
				);
			}
			for (const object of found) {
				for (const fieldPath of fieldPaths) replaceField(object, fieldPath, value, options);
			}
		}
	}
}

/** Whether an object is only read by the kustomization, never rendered (kustomize's local-config). */
function localConfig(object: KubernetesObject): boolean {
	const annotations = object.metadata['annotations'] as Record<string, unknown> | undefined;
	return annotations?.['config.kubernetes.io/local-config'] === 'true';
}

/**
 * Renders the kustomization in `folder` in kustomize's order: its resources' objects (a folder is
 * rendered as a kustomization of its own), its generated ConfigMaps, then its patches, images and
 * replacements over all of them; objects marked local-config are read, not rendered.
 */
export async function renderKustomization(folder: string): Promise<KubernetesObject[]> {
	const kustomization = await readKustomization(folder);
	const file = path.join(folder, 'kustomization.yaml');
	const objects: KubernetesObject[] = [];
	for (const resource of kustomization.resources) {
		const where = path.join(folder, resource);
		if ((await stat(where)).isDirectory()) objects.push(...(await renderKustomization(where)));
		else objects.push(...(await readObjects(where)));
	}
	if (
		kustomization.configMapGenerator.length > 0 &&
		!kustomization.generatorOptions?.disableNameSuffixHash
	) {
		throw new Error(
			`${file}: generated ConfigMaps get a hash suffix, which this reader does not compute`,
		);
	}
	for (const generator of kustomization.configMapGenerator) {
		const data: Record<string, string> = {};
		for (const entry of generator.files) {
			data[path.basename(entry)] = await readFile(path.join(folder, entry), 'utf8');
		}
		objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name }, data });
	}
	for (const { path: patchFile } of kustomization.patches) {
		for (const patch of await readObjects(path.join(folder, patchFile))) {
			const index = objects.findIndex(
				(object) =>
					object.apiVersion === patch.apiVersion &&
					object.kind === patch.kind &&
					object.metadata.name === patch.metadata.name,
			);
			const target = objects[index];
			if (!target) {
				throw new Error(
					`${file}: patch ${patchFile} names ${patch.kind} ${patch.metadata.name}, which is not rendered`,
				);
			}
			objects[index] = mergePatch(target, patch, patch.kind) as KubernetesObject;
		}
	}
	for (const object of objects) renameImages(object, kustomization.images);
	applyReplacements(objects, kustomization.replacements, file);
	return objects.filter((object) => !localConfig(object));
}

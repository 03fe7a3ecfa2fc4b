/**
 * deploy/kubernetes/ rendered as `kubectl kustomize` renders it, for the manifest tests (no
 * kubectl here): the resources' documents, the ConfigMaps of configMapGenerator, and the image
 * names of `images:`. It reads only the parts of a kustomization.yaml the portal uses, and refuses
 * any other, so a field added there fails the test until this reader follows it.
 */
import { readFile } from 'node:fs/promises';
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

/** Renders the kustomization in `folder`: its resources' objects, then its generated ConfigMaps. */
export async function renderKustomization(folder: string): Promise<KubernetesObject[]> {
	const kustomization = await readKustomization(folder);
	const objects: KubernetesObject[] = [];
	for (const resource of kustomization.resources) {
		const file = path.join(folder, resource);
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
			const object = result.data;
			renameImages(object, kustomization.images);
			objects.push(object);
		}
	}
	if (
		kustomization.configMapGenerator.length > 0 &&
		!kustomization.generatorOptions?.disableNameSuffixHash
	) {
		throw new Error(
			`${path.join(folder, 'kustomization.yaml')}: generated ConfigMaps get a hash suffix, which this reader does not compute`,
		);
	}
	for (const generator of kustomization.configMapGenerator) {
		const data: Record<string, string> = {};
		for (const file of generator.files) {
			data[path.basename(file)] = await readFile(path.join(folder, file), 'utf8');
		}
		objects.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: generator.name }, data });
	}
	return objects;
}

/**
 * Kubernetes objects checked offline, as the API server's strict field validation checks them:
 * against Kubernetes 1.36's schemas (kubernetes-models, generated from the release's OpenAPI
 * document), and for fields Kubernetes does not know, which those schemas let through. Used by
 * the manifest tests, on what the test reader renders and on what kubectl renders.
 */
import path from 'node:path';
import ts from 'typescript';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { Service } from 'kubernetes-models/v1/Service';
import type { KubernetesObject } from './kustomize.ts';

/** The kinds the manifests use: the model that validates each, and its TypeScript type. */
const KINDS: Record<
	string,
	{ validate: (object: KubernetesObject) => void; module: string; type: string }
> = {
	'apps/v1/Deployment': {
		validate: (object) => new Deployment(object).validate(),
		module: 'kubernetes-models/apps/v1/Deployment',
		type: 'IDeployment',
	},
	'v1/Service': {
		validate: (object) => new Service(object).validate(),
		module: 'kubernetes-models/v1/Service',
		type: 'IService',
	},
	'v1/ConfigMap': {
		validate: (object) => new ConfigMap(object).validate(),
		module: 'kubernetes-models/v1/ConfigMap',
		type: 'IConfigMap',
	},
	'autoscaling/v2/HorizontalPodAutoscaler': {
		validate: (object) => new HorizontalPodAutoscaler(object as never).validate(),
		module: 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler',
		type: 'IHorizontalPodAutoscaler',
	},
	'policy/v1/PodDisruptionBudget': {
		validate: (object) => new PodDisruptionBudget(object).validate(),
		module: 'kubernetes-models/policy/v1/PodDisruptionBudget',
		type: 'IPodDisruptionBudget',
	},
	'networking.k8s.io/v1/Ingress': {
		validate: (object) => new Ingress(object).validate(),
		module: 'kubernetes-models/networking.k8s.io/v1/Ingress',
		type: 'IIngress',
	},
};

const kindOf = (object: KubernetesObject): string => `${object.apiVersion}/${object.kind}`;

/** Each object's schema errors, one line per object that has any. */
export function schemaErrors(objects: readonly KubernetesObject[]): string[] {
	const errors: string[] = [];
	for (const object of objects) {
		const kind = KINDS[kindOf(object)];
		const name = `${object.kind} ${object.metadata.name}`;
		if (!kind) {
			errors.push(`${name}: no schema for ${kindOf(object)} in this test`);
			continue;
		}
		try {
			kind.validate(structuredClone(object));
		} catch (error) {
			errors.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
		}
	}
	return errors;
}

/** The program of the last check, whose unchanged files the next one reuses. */
let lastProgram: ts.Program | undefined;

/**
 * The fields Kubernetes does not know, found by TypeScript: each object is written as a literal
 * of its kind's type from kubernetes-models, and the compiler's excess-property check names any
 * field the type lacks, at any depth. The schemas themselves let unknown fields through.
 */
export function unknownFields(objects: readonly KubernetesObject[]): string[] {
	const file = path.join(import.meta.dirname, '__manifests__.ts');
	const used = [...new Set(objects.map(kindOf))].flatMap((kind) =>
		KINDS[kind] ? [KINDS[kind]] : [],
	);
	const source = [
		...used.map(({ module, type }) => `import type { ${type} } from '${module}';`),
		...objects.map((object, index) => {
			const type = KINDS[kindOf(object)]?.type ?? 'never';
			return `// ${object.kind} ${object.metadata.name}\nexport const object${index}: ${type} = ${JSON.stringify(object, null, '\t')};`;
		}),
	].join('\n');
	const options: ts.CompilerOptions = {
		strict: true,
		noEmit: true,
		skipLibCheck: true,
		target: ts.ScriptTarget.ES2022,
		module: ts.ModuleKind.NodeNext,
		moduleResolution: ts.ModuleResolutionKind.NodeNext,
		types: [],
		// The objects need no DOM, and lib.dom is most of what a program would otherwise read.
		lib: ['lib.es2022.d.ts'],
	};
	const host = ts.createCompilerHost(options);
	const getSourceFile = host.getSourceFile.bind(host);
	const fileExists = host.fileExists.bind(host);
	const read = host.readFile.bind(host);
	host.getSourceFile = (name, language, ...rest) =>
		name === file
			? ts.createSourceFile(name, source, language)
			: getSourceFile(name, language, ...rest);
	host.fileExists = (name) => name === file || fileExists(name);
	host.readFile = (name) => (name === file ? source : read(name));
	// The second check reuses the first one's reading of kubernetes-models' declarations.
	const program = ts.createProgram([file], options, host, lastProgram);
	lastProgram = program;
	return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
		const where =
			diagnostic.file && diagnostic.start !== undefined
				? diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start)
				: undefined;
		const near = where
			? source
					.split('\n')
					.slice(0, where.line + 1)
					.findLast((line) => line.startsWith('// '))
			: '';
		return `${near?.slice(3) ?? ''}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
	});
}

/**
 * deploy/kubernetes/ and the team overlay deploy/kubernetes-intranet/ rendered by a real kubectl
 * (the tests' own, v1.31.9), with the deploying guide's command, each rendered object checked as
 * the API server's strict field validation checks it (Kubernetes' schemas, and no field Kubernetes
 * does not know); then a copy whose team.yaml names another team, whose rendering follows it.
 */
import { execFile } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parse, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../support/processes.ts';
import { schemaErrors, unknownFields } from '../support/kubernetes-objects.ts';
import { renderKustomization, type KubernetesObject } from '../support/kustomize.ts';
import { KUBECTL, kubectlBin } from '../tools.ts';

/** What a team writes in team.yaml, read as the overlay's replacements read it. */
const teamSchema = z.object({
	data: z.strictObject({
		host: z.string(),
		tlsSecret: z.string(),
		webImage: z.string(),
		webTag: z.string(),
		mockImage: z.string(),
		mockTag: z.string(),
		webReplicas: z.string().regex(/^\d+$/),
		mockMinReplicas: z.string().regex(/^\d+$/),
		mockMaxReplicas: z.string().regex(/^\d+$/),
	}),
});
type Team = z.infer<typeof teamSchema>['data'];

/** Another team, with a registry on a port of its own: every value differs from the shipped one. */
const OTHER_TEAM: Team = {
	host: 'docs.team-b.intranet.example',
	tlsSecret: 'team-b-portal-tls',
	webImage: 'registry.team-b.example:5000/docs/console-portal-web',
	webTag: '0.2.0-rc.1',
	mockImage: 'registry.team-b.example:5000/docs/console-portal-mock',
	mockTag: '0.2.0-rc.2',
	webReplicas: '3',
	mockMinReplicas: '4',
	mockMaxReplicas: '12',
};

const run = promisify(execFile);

/** `kubectl kustomize` as the deploying guide runs it, from `checkout`; the objects it prints. */
async function kubectlKustomize(checkout: string, folder: string): Promise<KubernetesObject[]> {
	const { stdout } = await run(
		kubectlBin(),
		['kustomize', '--load-restrictor=LoadRestrictionsNone', folder],
		{ cwd: checkout, maxBuffer: 16 * 1024 * 1024 },
	);
	return parseAllDocuments(stdout).map((document) => document.toJS() as KubernetesObject);
}

/** The one object of a kind and name; fails when there is none. */
function find<T>(objects: readonly KubernetesObject[], kind: string, name: string): T {
	const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
	if (!found) throw new Error(`the rendering holds no ${kind} named ${name}`);
	return found as T;
}

interface Container {
	name: string;
	image: string;
	env?: { name: string; value?: string }[];
}
interface Workload {
	spec: { replicas?: number; template: { spec: { containers: Container[] } } };
}
interface Autoscaler {
	spec: { minReplicas: number; maxReplicas: number };
}
interface Ingress {
	spec: { tls: { hosts: string[]; secretName: string }[]; rules: { host: string }[] };
}

/** A Deployment's one container. */
function container(objects: readonly KubernetesObject[], name: string): Container {
	const [only] = find<Workload>(objects, 'Deployment', name).spec.template.spec.containers;
	if (!only) throw new Error(`${name} has no container`);
	return only;
}

/** An environment variable's value as a container sets it. */
const envValue = (from: Container, name: string): string | undefined =>
	from.env?.find((variable) => variable.name === name)?.value;

/** Objects in one order, by kind and name, for comparing two renderings. */
const sorted = (objects: readonly KubernetesObject[]): KubernetesObject[] =>
	[...objects].sort((a, b) =>
		`${a.kind} ${a.metadata.name}`.localeCompare(`${b.kind} ${b.metadata.name}`),
	);

/** Every place team.yaml's values reach in a rendering of the overlay. */
function teamValues(objects: readonly KubernetesObject[]): Record<string, unknown> {
	const web = container(objects, 'console-portal-web');
	const mock = container(objects, 'console-portal-mock');
	const ingress = find<Ingress>(objects, 'Ingress', 'console-portal');
	const autoscaler = find<Autoscaler>(objects, 'HorizontalPodAutoscaler', 'console-portal-mock');
	return {
		'Ingress hosts': ingress.spec.rules.map((rule) => rule.host),
		'Ingress TLS': ingress.spec.tls,
		'web image': web.image,
		'mock image': mock.image,
		'web replicas': find<Workload>(objects, 'Deployment', 'console-portal-web').spec.replicas,
		'mock replicas': [autoscaler.spec.minReplicas, autoscaler.spec.maxReplicas],
		'web PORTAL_URL': envValue(web, 'PORTAL_URL'),
		'web allowed host': envValue(web, 'PORTAL_ALLOWED_HOSTS')?.split(',')[0],
		'mock allowed host': envValue(mock, 'MOCK_ALLOWED_HOSTS')?.split(',')[0],
		'mock allowed origins': envValue(mock, 'MOCK_ALLOWED_ORIGINS'),
	};
}

/** What teamValues must find for a team.yaml. */
function expectedFor(team: Team): Record<string, unknown> {
	return {
		'Ingress hosts': [team.host],
		'Ingress TLS': [{ hosts: [team.host], secretName: team.tlsSecret }],
		'web image': `${team.webImage}:${team.webTag}`,
		'mock image': `${team.mockImage}:${team.mockTag}`,
		'web replicas': Number(team.webReplicas),
		'mock replicas': [Number(team.mockMinReplicas), Number(team.mockMaxReplicas)],
		'web PORTAL_URL': `https://${team.host}`,
		'web allowed host': team.host,
		'mock allowed host': team.host,
		'mock allowed origins': `https://${team.host}`,
	};
}

/** team.yaml's values, written over a copy's. */
async function writeTeam(file: string, team: Team): Promise<void> {
	let text = await readFile(file, 'utf8');
	for (const [key, value] of Object.entries(team)) {
		const line = new RegExp(`^  ${key}: .*$`, 'm');
		expect(text, `team.yaml names ${key} once`).toMatch(line);
		text = text.replace(line, `  ${key}: '${value}'`);
	}
	await writeFile(file, text);
}

let shipped: Team;
let base: KubernetesObject[];
let overlay: KubernetesObject[];
let otherCheckout: string;
let other: KubernetesObject[];

beforeAll(async () => {
	shipped = teamSchema.parse(
		parse(await readFile(path.join(ROOT, 'deploy/kubernetes-intranet/team.yaml'), 'utf8')),
	).data;
	[base, overlay] = await Promise.all([
		kubectlKustomize(ROOT, 'deploy/kubernetes'),
		kubectlKustomize(ROOT, 'deploy/kubernetes-intranet'),
	]);
	// A second team's checkout: the deploy folders and the fixtures, its team.yaml edited.
	otherCheckout = await mkdtemp(path.join(os.tmpdir(), 'console-portal-team-b-'));
	for (const folder of ['deploy/kubernetes', 'deploy/kubernetes-intranet', 'content/views']) {
		await cp(path.join(ROOT, folder), path.join(otherCheckout, folder), { recursive: true });
	}
	await writeTeam(path.join(otherCheckout, 'deploy/kubernetes-intranet/team.yaml'), OTHER_TEAM);
	other = await kubectlKustomize(otherCheckout, 'deploy/kubernetes-intranet');
}, 120_000);

afterAll(async () => {
	if (otherCheckout) await rm(otherCheckout, { recursive: true, force: true });
});

describe('kubectl kustomize, as the deploying guide runs it', () => {
	it(`is kubectl ${KUBECTL.version}, from the tests’ own packages`, async () => {
		const { stdout } = await run(kubectlBin(), ['version', '--client', '--output=json']);
		const version = z
			.object({ clientVersion: z.object({ gitVersion: z.string() }) })
			.parse(JSON.parse(stdout));
		expect(version.clientVersion.gitVersion).toBe(KUBECTL.version);
	});

	it('renders the base: every object valid against Kubernetes’ schemas, with no unknown field, and no team’s value', async () => {
		expect(base.map((object) => `${object.kind} ${object.metadata.name}`).sort()).toEqual([
			'ConfigMap console-portal-views',
			'Deployment console-portal-mock',
			'Deployment console-portal-web',
			'HorizontalPodAutoscaler console-portal-mock',
			'PodDisruptionBudget console-portal-mock',
			'PodDisruptionBudget console-portal-web',
			'Service console-portal-mock',
			'Service console-portal-web',
		]);
		expect(schemaErrors(base)).toEqual([]);
		expect(unknownFields(base)).toEqual([]);
		const { version } = z
			.object({ version: z.string() })
			.parse(JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')));
		expect(container(base, 'console-portal-web').image).toBe(
			`localhost/console-portal-web:${version}`,
		);
		expect(container(base, 'console-portal-mock').image).toBe(
			`localhost/console-portal-mock:${version}`,
		);
		const text = JSON.stringify(base);
		for (const value of [shipped.host, shipped.tlsSecret, shipped.webImage, shipped.mockImage]) {
			expect(text, value).not.toContain(value);
		}
	});

	it('renders the team overlay: every object valid, with no unknown field, and the check refuses a made-up one', () => {
		expect(schemaErrors(overlay)).toEqual([]);
		expect(unknownFields(overlay)).toEqual([]);
		expect(overlay.some((object) => object.metadata.name === 'console-portal-team')).toBe(false);
		const madeUp = structuredClone(
			find<KubernetesObject & Workload>(overlay, 'Deployment', 'console-portal-web'),
		);
		Object.assign(madeUp.spec.template.spec.containers[0] ?? {}, { portalHost: shipped.host });
		expect(unknownFields([madeUp])).toEqual([
			expect.stringMatching(
				/^Deployment console-portal-web: .*'"portalHost"' does not exist in type 'IContainer'/,
			),
		]);
		// What kubectl 1.23's kustomize renders (a replacement's string kept a string) is refused.
		const quoted = structuredClone(madeUp);
		Object.assign(quoted.spec, { replicas: shipped.webReplicas });
		expect(schemaErrors([quoted])).toEqual([
			expect.stringMatching(/^Deployment console-portal-web: .*replicas must be integer/),
		]);
	});

	it('puts team.yaml’s host, TLS Secret, images, tags and replicas where the team’s portal needs them', () => {
		expect(teamValues(overlay)).toEqual(expectedFor(shipped));
		expect(JSON.stringify(overlay)).not.toContain('TEAM_');
	});

	it('follows an edited team.yaml alone: another team’s rendering is valid and names none of the shipped values', () => {
		expect(teamValues(other)).toEqual(expectedFor(OTHER_TEAM));
		expect(schemaErrors(other)).toEqual([]);
		expect(unknownFields(other)).toEqual([]);
		const text = JSON.stringify(other);
		for (const value of [shipped.host, shipped.tlsSecret, shipped.webImage, shipped.mockImage]) {
			expect(text, value).not.toContain(value);
		}
		// Nothing else differs: the same objects, the same fields.
		const names = (objects: readonly KubernetesObject[]): string[] =>
			sorted(objects).map((object) => `${object.kind} ${object.metadata.name}`);
		expect(names(other)).toEqual(names(overlay));
	});

	it('renders what the manifest tests’ own reader renders, for the base, the overlay and the edited copy', async () => {
		expect(sorted(await renderKustomization(path.join(ROOT, 'deploy/kubernetes')))).toEqual(
			sorted(base),
		);
		expect(
			sorted(await renderKustomization(path.join(ROOT, 'deploy/kubernetes-intranet'))),
		).toEqual(sorted(overlay));
		expect(
			sorted(await renderKustomization(path.join(otherCheckout, 'deploy/kubernetes-intranet'))),
		).toEqual(sorted(other));
	});
});

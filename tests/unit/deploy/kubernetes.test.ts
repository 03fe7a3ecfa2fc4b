/**
 * deploy/kubernetes/, checked offline: every object kustomize renders from it is valid against
 * Kubernetes 1.36's schemas (kubernetes-models, generated from the release's OpenAPI document),
 * names no field Kubernetes lacks (kubectl's strict field validation refuses those), and says what
 * the images need: the mock's probes, a locked-down security context, the fixtures mounted whole
 * where the mock reads views, and the Services' names among the hosts each server answers. Then
 * the overlay deploy/kubernetes-intranet/, the same way: its Ingress, and the names and origins
 * that follow the one host name a team sets in its team.yaml.
 */
import { cp, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSettings } from '../../../src/sources/settings.ts';
import { ROOT } from '../../../support/processes.ts';
import { schemaErrors, unknownFields } from '../../support/kubernetes-objects.ts';
import { renderKustomization, type KubernetesObject } from '../../support/kustomize.ts';

const FOLDER = path.join(ROOT, 'deploy', 'kubernetes');
const OVERLAY = path.join(ROOT, 'deploy', 'kubernetes-intranet');
const VIEWS = path.join(ROOT, 'content', 'views');

let objects: KubernetesObject[];

beforeAll(async () => {
	objects = await renderKustomization(FOLDER);
});

/** The one object of a kind and name (in the base unless told); fails when there is none. */
function find<T>(kind: string, name: string, from: readonly KubernetesObject[] = objects): T {
	const found = from.find((object) => object.kind === kind && object.metadata.name === name);
	if (!found) throw new Error(`the rendering holds no ${kind} named ${name}`);
	return found as T;
}

interface Workload {
	spec: { replicas?: number; template: { spec: IPodSpec } };
}

/** A Deployment's pod spec and its one container. */
function pod(
	name: string,
	from: readonly KubernetesObject[] = objects,
): { spec: IPodSpec; container: IContainer } {
	const { spec } = find<Workload>('Deployment', name, from).spec.template;
	expect(spec.containers, name).toHaveLength(1);
	const [container] = spec.containers;
	if (!container) throw new Error(`${name} has no container`);
	return { spec, container };
}

/** An environment variable's value as the container sets it. */
function envValue(container: IContainer, name: string): string | undefined {
	return container.env?.find((variable) => variable.name === name)?.value;
}

/** A Containerfile's ENV value, as the image sets it. */
async function imageEnv(containerfile: string, name: string): Promise<string | undefined> {
	const text = await readFile(path.join(ROOT, 'deploy', containerfile), 'utf8');
	return new RegExp(`\\b${name}=(\\S+)`).exec(text)?.[1];
}

describe('deploy/kubernetes', () => {
	it('renders a Deployment, Service and disruption budget per image, the mock’s autoscaler and the fixtures’ ConfigMap', () => {
		expect(objects.map((object) => `${object.kind} ${object.metadata.name}`).sort()).toEqual([
			'ConfigMap console-portal-views',
			'Deployment console-portal-mock',
			'Deployment console-portal-web',
			'HorizontalPodAutoscaler console-portal-mock',
			'PodDisruptionBudget console-portal-mock',
			'PodDisruptionBudget console-portal-web',
			'Service console-portal-mock',
			'Service console-portal-web',
		]);
	});

	it('is valid against Kubernetes 1.36’s schemas, and the check refuses a broken object', () => {
		expect(schemaErrors(objects)).toEqual([]);
		const broken = structuredClone(
			find<KubernetesObject & Workload>('Deployment', 'console-portal-mock'),
		);
		const container = broken.spec.template.spec.containers[0] as unknown as Record<string, unknown>;
		container['ports'] = [{ containerPort: 'http' }];
		container['imagePullPolicy'] = 'Sometimes';
		const errors = schemaErrors([broken]);
		expect(errors).toHaveLength(1);
		expect(errors[0]).toMatch(/containerPort must be integer/);
		expect(errors[0]).toMatch(/imagePullPolicy must be equal to one of the allowed values/);
	});

	it('names no field Kubernetes does not know, and the check finds a misspelt one', () => {
		expect(unknownFields(objects)).toEqual([]);
		const misspelt = structuredClone(
			find<KubernetesObject & Workload>('Deployment', 'console-portal-mock'),
		);
		const container = misspelt.spec.template.spec.containers[0] as unknown as Record<
			string,
			unknown
		>;
		container['readinesProbe'] = container['readinessProbe'];
		const found = unknownFields([misspelt]);
		expect(found).toHaveLength(1);
		expect(found[0]).toMatch(
			/^Deployment console-portal-mock: .*'"readinesProbe"' does not exist in type 'IContainer'/,
		);
	});

	it('names the images of this version as npm run image gives them, no team’s registry', async () => {
		const { version } = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8')) as {
			version: string;
		};
		for (const image of ['web', 'mock']) {
			const { container } = pod(`console-portal-${image}`);
			expect(container.image).toBe(`localhost/console-portal-${image}:${version}`);
		}
	});

	it('runs both pods as the images’ user, non-root, on a read-only root with no capability, privilege escalation or unconfined syscalls', async () => {
		for (const image of ['web', 'mock']) {
			const name = `console-portal-${image}`;
			const { spec, container } = pod(name);
			const containerfile = await readFile(
				path.join(ROOT, 'deploy', `${image}.Containerfile`),
				'utf8',
			);
			expect(containerfile, name).toMatch(/^USER 10001:10001$/m);
			expect(spec.securityContext, name).toMatchObject({
				runAsNonRoot: true,
				runAsUser: 10001,
				runAsGroup: 10001,
				seccompProfile: { type: 'RuntimeDefault' },
			});
			expect(container.securityContext, name).toEqual({
				allowPrivilegeEscalation: false,
				readOnlyRootFilesystem: true,
				runAsNonRoot: true,
				capabilities: { drop: ['ALL'] },
				seccompProfile: { type: 'RuntimeDefault' },
			});
			expect(spec.automountServiceAccountToken, name).toBe(false);
			for (const resource of ['cpu', 'memory']) {
				expect(
					container.resources?.requests?.[resource],
					`${name} requests ${resource}`,
				).toBeDefined();
				expect(container.resources?.limits?.[resource], `${name} limits ${resource}`).toBeDefined();
			}
		}
	});

	it('gives nginx a memory-backed /tmp, its only writable path, and the mock none', () => {
		const web = pod('console-portal-web');
		expect(web.container.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
		expect(web.spec.volumes).toEqual([
			{ name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '16Mi' } },
		]);
		const mock = pod('console-portal-mock');
		expect(mock.container.volumeMounts?.every((mount) => mount.readOnly === true)).toBe(true);
	});

	it('probes the mock’s /readyz for readiness and /healthz for liveness, on its port, under a Host it answers', async () => {
		const { container } = pod('console-portal-mock');
		const port = Number(await imageEnv('mock.Containerfile', 'MOCK_PORT'));
		expect(container.ports).toEqual([{ name: 'http', containerPort: port }]);
		const localhost = [{ name: 'Host', value: 'localhost' }];
		expect(container.readinessProbe?.httpGet).toEqual({
			path: '/readyz',
			port: 'http',
			httpHeaders: localhost,
		});
		expect(container.livenessProbe?.httpGet).toEqual({
			path: '/healthz',
			port: 'http',
			httpHeaders: localhost,
		});
		expect(container.startupProbe?.httpGet?.path).toBe('/healthz');
		// The web image: nginx on its port, probed under a name it serves.
		const web = pod('console-portal-web').container;
		expect(web.ports).toEqual([
			{ name: 'http', containerPort: Number(await imageEnv('web.Containerfile', 'PORTAL_PORT')) },
		]);
		expect(web.readinessProbe?.httpGet).toEqual({
			path: '/',
			port: 'http',
			httpHeaders: localhost,
		});
	});

	it('answers under each Service’s names in any namespace, as the servers read their allowed hosts', () => {
		const namespace = 'team-portal';
		const expand = (value: string | undefined): string =>
			(value ?? '').replaceAll('$(POD_NAMESPACE)', namespace);
		for (const [image, variable] of [
			['web', 'PORTAL_ALLOWED_HOSTS'],
			['mock', 'MOCK_ALLOWED_HOSTS'],
		] as const) {
			const name = `console-portal-${image}`;
			const { container } = pod(name);
			const namespaceFrom = container.env?.find((entry) => entry.name === 'POD_NAMESPACE');
			expect(namespaceFrom?.valueFrom?.fieldRef?.fieldPath).toBe('metadata.namespace');
			// The same reading npm start and the mock give the variable (start.sh applies the same rule).
			const settings = readSettings({ [variable]: expand(envValue(container, variable)) });
			const allowed = image === 'web' ? settings.portalAllowedHosts : settings.mockAllowedHosts;
			expect(allowed).toEqual([
				name,
				`${name}.${namespace}`,
				`${name}.${namespace}.svc`,
				`${name}.${namespace}.svc.cluster.local`,
			]);
			const service = find<{ spec: { selector: unknown } }>('Service', name);
			expect(service.spec.selector).toEqual({ 'app.kubernetes.io/name': name });
		}
	});

	it('mounts every fixture of content/views, whole and unsuffixed, where the image reads views', async () => {
		const files = (await readdir(VIEWS)).filter((name) => name.endsWith('.json')).sort();
		const configMap = find<{ data: Record<string, string> }>('ConfigMap', 'console-portal-views');
		expect(Object.keys(configMap.data).sort()).toEqual(files);
		for (const file of files) {
			expect(configMap.data[file], file).toBe(await readFile(path.join(VIEWS, file), 'utf8'));
		}
		const bytes = Object.values(configMap.data).reduce(
			(sum, text) => sum + Buffer.byteLength(text),
			0,
		);
		expect(bytes, 'a ConfigMap holds at most 1 MiB').toBeLessThan(1024 * 1024);
		const { spec, container } = pod('console-portal-mock');
		const viewsDir = await imageEnv('mock.Containerfile', 'PORTAL_VIEWS_DIR');
		expect(viewsDir).toBe('/opt/console-portal-mock/views');
		// A subPath mount would never see the ConfigMap change.
		expect(container.volumeMounts).toEqual([
			{ name: 'views', mountPath: viewsDir, readOnly: true },
		]);
		expect(spec.volumes).toEqual([{ name: 'views', configMap: { name: 'console-portal-views' } }]);
		expect(envValue(container, 'PORTAL_VIEWS_DIR')).toBeUndefined();
	});

	it('scales the mock on CPU, within a disruption budget, with a worker per core of its limit', () => {
		const deployment = find<Workload>('Deployment', 'console-portal-mock');
		// The autoscaler owns the replica count; a count here would reset it at every apply.
		expect(deployment.spec.replicas).toBeUndefined();
		const autoscaler = find<{ spec: Record<string, unknown> }>(
			'HorizontalPodAutoscaler',
			'console-portal-mock',
		);
		expect(autoscaler.spec['scaleTargetRef']).toEqual({
			apiVersion: 'apps/v1',
			kind: 'Deployment',
			name: 'console-portal-mock',
		});
		expect(autoscaler.spec['minReplicas']).toBeGreaterThanOrEqual(2);
		expect(autoscaler.spec['metrics']).toEqual([
			{
				type: 'Resource',
				resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
			},
		]);
		for (const name of ['console-portal-mock', 'console-portal-web']) {
			const budget = find<{ spec: { selector: unknown; maxUnavailable: number } }>(
				'PodDisruptionBudget',
				name,
			);
			expect(budget.spec.selector, name).toEqual({
				matchLabels: { 'app.kubernetes.io/name': name },
			});
			expect(budget.spec.maxUnavailable, name).toBe(1);
		}
		const { container } = pod('console-portal-mock');
		const workers = container.env?.find((entry) => entry.name === 'MOCK_WORKERS');
		expect(workers?.valueFrom?.resourceFieldRef).toEqual({
			resource: 'limits.cpu',
			divisor: '1',
		});
	});
});

/** What a team writes in deploy/kubernetes-intranet/team.yaml. */
const TEAM = { host: 'portal.intranet.example', tlsSecret: 'console-portal-tls' };
/** Another team's values, written into a copy of the overlay. */
const OTHER_TEAM = { host: 'docs.team-b.intranet.example', tlsSecret: 'team-b-portal-tls' };

/** The command README's "Deploy to Kubernetes" gives for the overlay's rendering. */
const RENDER_COMMAND =
	'kubectl kustomize --load-restrictor=LoadRestrictionsNone deploy/kubernetes-intranet';

interface IngressSpec {
	spec: {
		tls: { hosts: string[]; secretName: string }[];
		rules: {
			host: string;
			http: {
				paths: {
					path: string;
					pathType: string;
					backend: { service: { name: string; port: { name: string } } };
				}[];
			};
		}[];
	};
}

interface ServiceSpec {
	spec: { ports: { name: string; port: number }[] };
}

/** A copy of the overlay with another team.yaml, beside links to the base and the fixtures. */
async function overlayFor(team: { host: string; tlsSecret: string }): Promise<string> {
	const folder = await mkdtemp(path.join(os.tmpdir(), 'console-portal-overlay-'));
	await Promise.all([
		symlink(path.join(ROOT, 'content'), path.join(folder, 'content')),
		cp(OVERLAY, path.join(folder, 'deploy', 'kubernetes-intranet'), { recursive: true }),
	]);
	await symlink(FOLDER, path.join(folder, 'deploy', 'kubernetes'));
	const teamFile = path.join(folder, 'deploy', 'kubernetes-intranet', 'team.yaml');
	const text = await readFile(teamFile, 'utf8');
	const edited = text
		.replace(`host: ${TEAM.host}`, `host: ${team.host}`)
		.replace(`tlsSecret: ${TEAM.tlsSecret}`, `tlsSecret: ${team.tlsSecret}`);
	expect(edited, 'team.yaml names the host and secret once each').not.toBe(text);
	await writeFile(teamFile, edited);
	return folder;
}

describe('deploy/kubernetes-intranet, a team’s portal on one name', () => {
	let overlay: KubernetesObject[];
	let other: KubernetesObject[];
	let otherFolder: string;

	beforeAll(async () => {
		overlay = await renderKustomization(OVERLAY);
		otherFolder = await overlayFor(OTHER_TEAM);
		other = await renderKustomization(path.join(otherFolder, 'deploy', 'kubernetes-intranet'));
	});

	afterAll(async () => {
		if (otherFolder) await rm(otherFolder, { recursive: true, force: true });
	});

	it('renders the base and an Ingress, and leaves team.yaml’s ConfigMap out', () => {
		expect(overlay.map((object) => `${object.kind} ${object.metadata.name}`).sort()).toEqual(
			[
				...objects.map((object) => `${object.kind} ${object.metadata.name}`),
				'Ingress console-portal',
			].sort(),
		);
		// The objects the overlay does not change are the base's, exactly.
		for (const object of objects.filter((candidate) => candidate.kind !== 'Deployment')) {
			expect(find(object.kind, object.metadata.name, overlay), object.metadata.name).toEqual(
				object,
			);
		}
	});

	it('is valid against Kubernetes 1.36’s schemas and names no field Kubernetes does not know', () => {
		expect(schemaErrors(overlay)).toEqual([]);
		expect(unknownFields(overlay)).toEqual([]);
		const broken = structuredClone(
			find<KubernetesObject & IngressSpec>('Ingress', 'console-portal', overlay),
		);
		(broken.spec.rules[0]?.http.paths[0] as unknown as Record<string, unknown>)['pathType'] =
			'Glob';
		expect(schemaErrors([broken])).toEqual([
			expect.stringMatching(
				/^Ingress console-portal: .*pathType must be equal to one of the allowed values/,
			),
		]);
	});

	it('routes the team’s host over TLS: /api/ to the mock’s Service, every other path to the pages', () => {
		const ingress = find<IngressSpec>('Ingress', 'console-portal', overlay);
		expect(ingress.spec.tls).toEqual([{ hosts: [TEAM.host], secretName: TEAM.tlsSecret }]);
		expect(ingress.spec.rules).toEqual([
			{
				host: TEAM.host,
				http: {
					paths: [
						{
							path: '/api/',
							pathType: 'Prefix',
							backend: { service: { name: 'console-portal-mock', port: { name: 'http' } } },
						},
						{
							path: '/',
							pathType: 'Prefix',
							backend: { service: { name: 'console-portal-web', port: { name: 'http' } } },
						},
					],
				},
			},
		]);
		// Each backend names a Service and a port the Service has.
		for (const name of ['console-portal-mock', 'console-portal-web']) {
			const service = find<ServiceSpec>('Service', name, overlay);
			expect(
				service.spec.ports.map((port) => port.name),
				name,
			).toContain('http');
		}
	});

	it('has the pages’ nginx proxy the mock’s path to the mock’s Service, its port 4010', () => {
		const web = pod('console-portal-web', overlay).container;
		expect(envValue(web, 'MOCK_UPSTREAM')).toBe('http://console-portal-mock:4010');
		const service = find<ServiceSpec>('Service', 'console-portal-mock', overlay);
		expect(service.spec.ports).toEqual([{ name: 'http', port: 4010, targetPort: 'http' }]);
		// The base runs no proxy: MOCK_UPSTREAM is the overlay's.
		expect(envValue(pod('console-portal-web').container, 'MOCK_UPSTREAM')).toBeUndefined();
	});

	it.each([
		['team.yaml as shipped', TEAM, () => overlay],
		['another team’s team.yaml', OTHER_TEAM, () => other],
	])(
		'with %s, both servers answer the host and the Services’ names, and the mock the host’s https origin',
		(_case, team, rendered) => {
			const namespace = 'team-portal';
			const expand = (value: string | undefined): string =>
				(value ?? '').replaceAll('$(POD_NAMESPACE)', namespace);
			const web = pod('console-portal-web', rendered()).container;
			const mock = pod('console-portal-mock', rendered()).container;
			const services = (name: string): string[] => [
				name,
				`${name}.${namespace}`,
				`${name}.${namespace}.svc`,
				`${name}.${namespace}.svc.cluster.local`,
			];
			// Read as npm start, start.sh and the mock read them.
			expect(
				readSettings({ PORTAL_ALLOWED_HOSTS: expand(envValue(web, 'PORTAL_ALLOWED_HOSTS')) })
					.portalAllowedHosts,
			).toEqual([team.host, ...services('console-portal-web')]);
			expect(
				readSettings({ MOCK_ALLOWED_HOSTS: expand(envValue(mock, 'MOCK_ALLOWED_HOSTS')) })
					.mockAllowedHosts,
			).toEqual([team.host, ...services('console-portal-mock')]);
			const origins = envValue(mock, 'MOCK_ALLOWED_ORIGINS');
			expect(origins).toBe(`https://${team.host}`);
			expect(readSettings({ MOCK_ALLOWED_ORIGINS: origins }).mockAllowedOrigins).toEqual([
				`https://${team.host}`,
			]);
			const ingress = find<IngressSpec>('Ingress', 'console-portal', rendered());
			expect(ingress.spec.rules.map((rule) => rule.host)).toEqual([team.host]);
			expect(ingress.spec.tls).toEqual([{ hosts: [team.host], secretName: team.tlsSecret }]);
		},
	);

	it('follows team.yaml alone: another team’s rendering names none of the shipped values', () => {
		const text = JSON.stringify(other);
		expect(text).not.toContain(TEAM.host);
		expect(text).not.toContain(TEAM.tlsSecret);
		expect(text).not.toContain('TEAM_');
		expect(JSON.stringify(overlay)).not.toContain('TEAM_');
	});

	it('says the web pods are given PORTAL_MOCK_URL=/, and the deploying guide gives the render command a team runs', async () => {
		const kustomization = await readFile(path.join(OVERLAY, 'kustomization.yaml'), 'utf8');
		expect(kustomization).toContain('PORTAL_MOCK_URL=/');
		expect(kustomization).toContain(RENDER_COMMAND);
		const guide = await readFile(path.join(ROOT, 'content/docs/deploying.mdx'), 'utf8');
		expect(guide).toContain(RENDER_COMMAND);
	});

	// tests/integration/kubernetes-render.test.ts renders both with the tests' kubectl, as the
	// deploying guide does, and compares its rendering with this reader's.
});

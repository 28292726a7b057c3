import type { WorkerDeploymentVersion } from '@temporalio/common';

/**
 * The Worker Deployment version a worker process polls as (docs/production.md "Zero-downtime deploys"): WORKER_DEPLOYMENT_NAME
 * (the same for every build of the service) and WORKER_BUILD_ID (unique per build, e.g. the image tag). Both unset:
 * an unversioned worker, as `npm start` and the tests run it. Half a setting, or a value the server refuses, stops
 * the worker at start: it would otherwise poll as a version nobody routes work to.
 */
export function workerDeployment(env: NodeJS.ProcessEnv): WorkerDeploymentVersion | undefined {
  const deploymentName = env.WORKER_DEPLOYMENT_NAME?.trim() ?? '';
  const buildId = env.WORKER_BUILD_ID?.trim() ?? '';
  if (!deploymentName && !buildId) return undefined;
  if (!buildId) throw new Error('WORKER_DEPLOYMENT_NAME is set but WORKER_BUILD_ID is not set: set both (versioned workers) or neither');
  if (!deploymentName) throw new Error('WORKER_BUILD_ID is set but WORKER_DEPLOYMENT_NAME is not set: set both (versioned workers) or neither');
  // The server names a version `<deployment>.<build id>` (older form) or `<deployment>:<build id>`.
  if (/[.:]/.test(deploymentName)) throw new Error(`WORKER_DEPLOYMENT_NAME must not contain '.' or ':', got ${JSON.stringify(deploymentName)}`);
  for (const [name, value] of [
    ['WORKER_DEPLOYMENT_NAME', deploymentName],
    ['WORKER_BUILD_ID', buildId],
  ] as const) {
    if (value.length > 255) throw new Error(`${name} must be at most 255 characters, got ${value.length}`);
    if (/\s/.test(value)) throw new Error(`${name} must not contain spaces, got ${JSON.stringify(value)}`);
  }
  return { deploymentName, buildId };
}

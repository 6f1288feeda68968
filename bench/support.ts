/** Shared by the benchmarks that talk to the emulator in a process of its own. */
import { fork, type ChildProcess } from '../host/child_process';
import path from '../host/path';
import type { IDataObject } from 'n8n-workflow';

/**
 * Calls an admin route of the emulator. Once more when the kept-alive connection was closed
 * under the call (the server ends an idle one after 5 s, and a run between two calls can
 * last longer): the admin routes are safe to repeat.
 */
export async function admin(
	url: string,
	method: string,
	route: string,
	body?: unknown,
): Promise<IDataObject> {
	const call = async () =>
		await fetch(`${url}/__admin/${route}`, {
			method,
			headers: { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	const closedUnder = (error: unknown) =>
		(error as { cause?: { code?: string } }).cause?.code === 'UND_ERR_SOCKET';
	const res = await call().catch(async (error: unknown) =>
		closedUnder(error) ? await call() : await Promise.reject(error),
	);
	return (await res.json()) as IDataObject;
}

/** Starts the emulator in a process of its own (emulator-process.ts); `child.disconnect()` stops it. */
export async function emulatorProcess(
	options: IDataObject = {},
): Promise<{ url: string; child: ChildProcess }> {
	const child = fork(path.join(module.path, 'emulator-process.js'), [JSON.stringify(options)]);
	const url = await new Promise<string>((resolve, reject) => {
		child.once('message', (m) => resolve((m as { url: string }).url));
		child.once('error', reject);
	});
	return { url, child };
}

/** The middle of the values (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = sorted.length >> 1;
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The most requests that arrived within any `windowMs` (arrival times in order). */
export function mostInOneWindow(times: number[], windowMs: number): number {
	let most = 0;
	for (let i = 0, first = 0; i < times.length; i++) {
		while (times[i] - times[first] >= windowMs) first++;
		most = Math.max(most, i - first + 1);
	}
	return most;
}

/**
 * Where the CPU goes, Vendor Books against n8n's HTTP Request node: each runs 4,000 items
 * (the GETs of bench/vs-http-request.ts, each at its default: Vendor with Requests in
 * Flight 10, HTTP Request with Batching off) at a server latency and in a number of
 * executions at once (default 0 ms, one; `4000 16 10 100 4` is the busy worker at 100 ms)
 * in a child process under node's `--cpu-prof`, after a warm-up of 1,000 items. Only the samples of the
 * measured run count (the child reports its start and end on the profile's clock). Prints
 * self time by where the code lives (our package, n8n-workflow, n8n-core, axios, node, ...)
 * side by side; then for each, the top frames of package code by inclusive time (each
 * sample's time added to every function on its stack, once per function) and the top
 * frames by self time with the package code that called them; all in ms per item. The
 * profiles stay in .cache/bench-profiles/ (open them in Chrome DevTools or VS Code).
 *
 * "Sampled busy" is the time the profiler found the thread not idle: CPU time, plus any
 * time it was ready to run but waiting for a core (the machine's other work).
 *
 *   npm run build:tools && node build/bench/cpu-profile.js [items] [top] [in flight] [latency ms] [executions]   (default 4000 16, Vendor's default, 0, 1)
 *     (in flight: Vendor Books' Requests in Flight, to compare its profile at 10 and at 50; items are split among the executions)
 *   node build/bench/cpu-profile.js --summarize <file.cpuprofile> [items] [top]
 *     (a profile made here: its measured run, from the .window.json beside it; any other: whole)
 */
import { spawnSync } from '../host/child_process';
import fs from '../host/fs';
import path from '../host/path';

import { fixture, requestsInFlightLimits, runPeer } from './peers';
import type { PeerName } from './peers';
import { setupHttpRequest } from './setup-http-request';
import { admin, emulatorProcess } from './support';
import { console, process } from '../host/globals';

const ROOT = path.resolve(module.path, '..', '..');
const PROFILE_DIR = path.join(ROOT, '.cache', 'bench-profiles');
const SAMPLING_INTERVAL_US = 500;
const WARM_UP_ITEMS = 1000;

interface CallFrame {
	functionName: string;
	url: string;
	lineNumber: number;
	columnNumber: number;
}

interface ProfileNode {
	id: number;
	callFrame: CallFrame;
	children?: number[];
}

interface CpuProfile {
	nodes: ProfileNode[];
	startTime: number;
	endTime: number;
	samples: number[];
	timeDeltas: number[];
}

/** The measured run's bounds, µs on the profile's clock (CLOCK_MONOTONIC, as process.hrtime). */
interface Window {
	start: number;
	end: number;
}

interface Frame {
	name: string;
	where: string;
	place: string;
	/** ms */
	self: number;
	/** ms */
	inclusive: number;
	/** Of the self time: the nearest package-code frame up the stack (not node's internals; NO_CALLER if none), ms. */
	callers: Map<Frame, number>;
}

interface Summary {
	/** Sampled time in the window, ms: not idle, idle. */
	busyMs: number;
	idleMs: number;
	/** Self time by where the code lives, ms. */
	byPlace: Map<string, number>;
	/** Frames by inclusive time, largest first. */
	frames: Frame[];
	windowed: boolean;
}

const IDLE = '(idle)';
/** The caller of self time with no package code on its stack: a callback or a continuation after an await, called by node. */
const NO_CALLER: Frame = {
	name: '(no package code on the stack: a callback or a resumed await)',
	where: '',
	place: '',
	self: 0,
	inclusive: 0,
	callers: new Map(),
};
/** Frames that are the profile's own structure, not code: left out of the frame tables. */
const STRUCTURE = new Set(['(root)', '(program)', IDLE]);

/** Where a frame's code lives: our package, a package of node_modules, node itself, V8. */
function placeOf(frame: CallFrame): string {
	const url = frame.url.replace(/^file:\/\//, '');
	if (!url) return frame.functionName.startsWith('(') ? frame.functionName : 'V8 / native';
	if (url.startsWith('node:')) return 'node (internals)';
	const modules = url.lastIndexOf('/node_modules/');
	if (modules >= 0) {
		const parts = url.slice(modules + '/node_modules/'.length).split('/');
		return parts[0].startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0];
	}
	if (url.includes('/bench-nodes-base/n8n-nodes-base/')) return 'n8n-nodes-base';
	if (url.includes('/build/nodes/') || url.includes('/build/credentials/'))
		return 'n8n-nodes-vendor (ours)';
	if (url.includes('/build/harness/')) return 'harness';
	if (url.includes('/build/bench/')) return 'bench';
	return 'other';
}

/** Code of a package (ours, n8n's, axios, ...), not node's internals, V8 or the profile's own nodes. */
function isPackageCode(frame: Frame): boolean {
	return (
		frame.place !== 'node (internals)' &&
		frame.place !== 'V8 / native' &&
		!frame.place.startsWith('(')
	);
}

/** A short location: the path from the package (or the project) on, 1-based line. */
function locationOf(frame: CallFrame): string {
	let url = frame.url.replace(/^file:\/\//, '');
	if (!url) return '';
	const modules = url.lastIndexOf('/node_modules/');
	if (modules >= 0) url = url.slice(modules + '/node_modules/'.length);
	else if (url.includes('/bench-nodes-base/'))
		url = url.slice(url.indexOf('/bench-nodes-base/') + '/bench-nodes-base/'.length);
	else if (url.startsWith(ROOT)) url = url.slice(ROOT.length + 1);
	url = url.replace('/dist/cjs/', '/…/').replace('/dist/', '/…/');
	return `${url}:${frame.lineNumber + 1}`;
}

/** Reads a .cpuprofile: self time per frame, and inclusive time summed up the call tree, within `window` if given. */
function summarize(profile: CpuProfile, window?: Window): Summary {
	const byId = new Map(profile.nodes.map((n) => [n.id, n]));
	const parent = new Map<number, number>();
	for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
	const key = (f: CallFrame) => `${f.functionName}|${f.url}|${f.lineNumber}|${f.columnNumber}`;
	const frames = new Map<string, Frame>();
	const frameOf = (node: ProfileNode): Frame => {
		const k = key(node.callFrame);
		let frame = frames.get(k);
		if (!frame) {
			frame = {
				name: node.callFrame.functionName || '(anonymous)',
				where: locationOf(node.callFrame),
				place: placeOf(node.callFrame),
				self: 0,
				inclusive: 0,
				callers: new Map(),
			};
			frames.set(k, frame);
		}
		return frame;
	};
	const inWindow =
		window && window.start >= profile.startTime && window.end <= profile.endTime
			? window
			: undefined;
	const byPlace = new Map<string, number>();
	let busyUs = 0;
	let idleUs = 0;
	let t = profile.startTime;
	for (let i = 0; i < profile.samples.length; i++) {
		t += profile.timeDeltas[i];
		if (inWindow && (t < inWindow.start || t > inWindow.end)) continue;
		// a sample stands for the time until the next one
		const dt = profile.timeDeltas[i + 1] ?? 0;
		const leaf = byId.get(profile.samples[i])!;
		if (leaf.callFrame.functionName === IDLE) {
			idleUs += dt;
			continue;
		}
		busyUs += dt;
		const self = frameOf(leaf);
		self.self += dt;
		byPlace.set(self.place, (byPlace.get(self.place) ?? 0) + dt);
		const seen = new Set<Frame>();
		let caller: Frame | undefined;
		for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
			const frame = frameOf(byId.get(id)!);
			if (!caller && frame !== self && isPackageCode(frame)) caller = frame;
			if (!seen.has(frame)) {
				seen.add(frame);
				frame.inclusive += dt;
			}
		}
		caller ??= NO_CALLER;
		self.callers.set(caller, (self.callers.get(caller) ?? 0) + dt);
	}
	const ms = (us: number) => us / 1000;
	for (const f of frames.values()) {
		f.self = ms(f.self);
		f.inclusive = ms(f.inclusive);
		for (const [c, us] of f.callers) f.callers.set(c, ms(us));
	}
	for (const [place, us] of byPlace) byPlace.set(place, ms(us));
	return {
		busyMs: ms(busyUs),
		idleMs: ms(idleUs),
		byPlace,
		frames: [...frames.values()]
			.filter((f) => !STRUCTURE.has(f.name))
			.sort((a, b) => b.inclusive - a.inclusive),
		windowed: inWindow !== undefined,
	};
}

function printFrames(title: string, s: Summary, items: number, top: number): void {
	const perItem = (ms: number) => (ms / items).toFixed(3);
	const pct = (ms: number) => `${((100 * ms) / s.busyMs).toFixed(0)} %`;
	const named = (f: Frame) => `${f.name}${f.where ? ` (${f.where})` : ''}`;
	console.log(
		`\n${title}: top ${top} frames of package code (not node's internals) by inclusive time; ms per item, % of the ${perItem(s.busyMs)} ms/item sampled busy`,
	);
	console.log('  incl   incl %    self  function (where)');
	for (const f of s.frames.filter(isPackageCode).slice(0, top)) {
		console.log(
			`${perItem(f.inclusive).padStart(6)} ${pct(f.inclusive).padStart(8)} ${perItem(f.self).padStart(7)}  ${named(f)}`,
		);
	}
	const selfTop = Math.ceil(top / 2);
	console.log(
		`\n${title}: top ${selfTop} frames by self time, each with the package code that called it most (its share of that self time)`,
	);
	console.log('  self   self %  function (where)  <- nearest package caller');
	for (const f of [...s.frames].sort((a, b) => b.self - a.self).slice(0, selfTop)) {
		const [caller, ms] = [...f.callers.entries()].sort((a, b) => b[1] - a[1])[0] ?? [];
		const from =
			caller && f.self > 0
				? `  <- ${named(caller)}, ${((100 * (ms ?? 0)) / f.self).toFixed(0)} %`
				: '';
		console.log(`${perItem(f.self).padStart(6)} ${pct(f.self).padStart(8)}  ${named(f)}${from}`);
	}
}

/** Self time by where the code lives, side by side, ms per item. */
function printPlaces(named: Array<[string, Summary]>, items: number): void {
	const places = new Map<string, number>();
	for (const [, s] of named)
		for (const [place, ms] of s.byPlace) places.set(place, Math.max(places.get(place) ?? 0, ms));
	const rows = [...places.entries()]
		.filter(([, ms]) => ms / items >= 0.0005)
		.sort((a, b) => b[1] - a[1])
		.map(([place]) => place);
	console.log(
		`\nself time by where the code lives, ms per item (${items} items; places under 0.001 left out)`,
	);
	console.log(`${'where'.padEnd(28)}${named.map(([name]) => name.padStart(16)).join('')}`);
	for (const place of rows) {
		console.log(
			`${place.padEnd(28)}${named.map(([, s]) => ((s.byPlace.get(place) ?? 0) / items).toFixed(3).padStart(16)).join('')}`,
		);
	}
	console.log(
		`${'total sampled busy'.padEnd(28)}${named.map(([, s]) => (s.busyMs / items).toFixed(3).padStart(16)).join('')}`,
	);
}

/** Beside each profile: the measured run's window, items and figures. */
const windowFile = (profile: string) => profile.replace(/\.cpuprofile$/, '.window.json');

const LABEL: Record<PeerName, string> = { httpRequest: 'HTTP Request', vendor: 'Vendor Books' };

/** In the child: the warm-up, then the measured run; reports its window on stdout as the last line. */
async function profiledRun(
	peer: PeerName,
	items: number,
	inFlight: number,
	latencyMs: number,
	executions: number,
): Promise<void> {
	const { url, child } = await emulatorProcess();
	try {
		const fx = await fixture(url);
		await admin(url, 'POST', 'latency', { ms: 0 });
		const config = peer === 'vendor' ? { requestsInFlight: inFlight } : {};
		await runPeer(peer, fx, WARM_UP_ITEMS, config);
		await admin(url, 'POST', 'latency', { ms: latencyMs, jitterMs: 0 });
		await admin(url, 'DELETE', 'requests');
		const start = Number(process.hrtime.bigint() / 1000n);
		const cpu = process.cpuUsage();
		const began = performance.now();
		// `executions` runs of the workflow at once (a busy worker), `items` items in all
		await Promise.all(
			Array.from(
				{ length: executions },
				async () => await runPeer(peer, fx, Math.round(items / executions), config),
			),
		);
		const used = process.cpuUsage(cpu);
		const measured = { took: performance.now() - began, cpuMs: (used.user + used.system) / 1000 };
		const end = Number(process.hrtime.bigint() / 1000n);
		console.log(JSON.stringify({ window: { start, end }, ...measured }));
	} finally {
		child.disconnect();
	}
}

async function main(): Promise<void> {
	const args = process.argv.slice(2);
	if (args[0] === '--child')
		return await profiledRun(
			args[1] as PeerName,
			Number(args[2]),
			Number(args[3]),
			Number(args[4]),
			Number(args[5]),
		);
	if (args[0] === '--summarize') {
		// the measured run of a profile this script made (its .window.json), else the whole profile
		const made = fs.existsSync(windowFile(args[1]))
			? (JSON.parse(fs.readFileSync(windowFile(args[1]), 'utf8')) as {
					items: number;
					window: Window;
				})
			: undefined;
		const items = Number(args[2] ?? made?.items ?? 1);
		const s = summarize(JSON.parse(fs.readFileSync(args[1], 'utf8')) as CpuProfile, made?.window);
		printPlaces([[path.basename(args[1]), s]], items);
		printFrames(path.basename(args[1]), s, items, Number(args[3] ?? 16));
		return;
	}
	const items = Number(args[0] ?? 4000);
	const top = Number(args[1] ?? 16);
	const inFlight = Number(args[2] ?? requestsInFlightLimits().default);
	const latencyMs = Number(args[3] ?? 0);
	const executions = Number(args[4] ?? 1);
	setupHttpRequest();
	fs.mkdirSync(PROFILE_DIR, { recursive: true });
	const named: Array<[string, Summary]> = [];
	console.log(
		`\nCPU profiles: ${items} items at ${latencyMs} ms server latency in ${executions} execution(s) at once, Vendor Books with Requests in Flight ${inFlight} (default ${requestsInFlightLimits().default}), HTTP Request at its default (Batching off), ` +
			`each in a child under --cpu-prof (a sample every ${SAMPLING_INTERVAL_US} µs) after a ${WARM_UP_ITEMS}-item warm-up; only the measured run counts`,
	);
	console.log(
		'"sampled busy": time the profiler found the thread not idle, which on a busy machine includes waits for a core (often inside syscalls: connect, write); CPU is process.cpuUsage',
	);
	for (const peer of ['httpRequest', 'vendor'] as const) {
		const name = `${peer === 'vendor' ? 'vendor-books' : 'http-request'}.cpuprofile`;
		const file = path.join(PROFILE_DIR, name);
		fs.rmSync(file, { force: true });
		const args = [
			'--cpu-prof',
			'--cpu-prof-dir',
			PROFILE_DIR,
			'--cpu-prof-name',
			name,
			'--cpu-prof-interval',
			String(SAMPLING_INTERVAL_US),
			module.filename,
			'--child',
			peer,
			String(items),
			String(inFlight),
			String(latencyMs),
			String(executions),
		];
		const result = spawnSync(process.execPath, args, {
			encoding: 'utf8',
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		if (result.status !== 0)
			throw new Error(`${peer} profile run failed (${result.status}): ${result.stdout}`);
		const report = JSON.parse(result.stdout.trim().split('\n').pop()!) as {
			window: Window;
			took: number;
			cpuMs: number;
		};
		fs.writeFileSync(windowFile(file), JSON.stringify({ items, ...report }, null, 2));
		const s = summarize(JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile, report.window);
		console.log(
			`${LABEL[peer].padEnd(13)} wall ${(report.took / items).toFixed(3)} ms/item, CPU ${(report.cpuMs / items).toFixed(3)} ms/item (process.cpuUsage), sampled busy ${(s.busyMs / items).toFixed(3)} ms/item` +
				`${s.windowed ? '' : ' (whole profile: the run was not on its clock)'}; ${path.relative(ROOT, file)}`,
		);
		named.push([LABEL[peer], s]);
	}
	printPlaces(named, items);
	for (const [name, s] of named) printFrames(name, s, items, top);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

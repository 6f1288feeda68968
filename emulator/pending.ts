/**
 * The waits the server starts and `close()` must cut short (sleeps, `drip` answers), and whether
 * the emulator is closing.
 */
import type http from '../host/http';
import { clearTimeout, setTimeout } from '../host/globals';
import type { Fault } from './faults';
import { type Wire, without } from './wire';

export class Pending {
	/** Set by `close()`: a request that wakes up then is dropped. */
	closing = false;
	private readonly sleepers = new Set<() => void>();
	private readonly drips = new Set<() => void>();

	sleep(ms: number): Promise<void> {
		return new Promise((resolve) => {
			const done = (): void => {
				clearTimeout(timer);
				this.sleepers.delete(done);
				resolve();
			};
			const timer = setTimeout(done, ms);
			this.sleepers.add(done);
		});
	}

	/**
	 * A `drip` answer: status, headers (full Content-Length) and the first `bytes` at once,
	 * then `bytes` every `everyMs`. Stops when the client goes away or the emulator closes.
	 */
	drip(res: http.ServerResponse, wire: Wire, fault: Extract<Fault, { kind: 'drip' }>): void {
		const bytes = fault.bytes ?? 1;
		const everyMs = fault.everyMs ?? 500;
		res.writeHead(wire.status, {
			...without(wire.headers, 'content-length'),
			'Content-Length': wire.payload.length,
		});
		if (wire.payload.length === 0) return void res.end();
		res.flushHeaders();
		let sent = 0;
		let timer: NodeJS.Timeout | undefined;
		const stop = (): void => {
			if (timer) clearTimeout(timer);
			timer = undefined;
			this.drips.delete(stop);
			res.off('close', stop);
		};
		const step = (): void => {
			timer = undefined;
			if (this.closing || res.destroyed || res.socket?.destroyed) return stop();
			const chunk = wire.payload.subarray(sent, sent + bytes);
			sent += chunk.length;
			if (sent >= wire.payload.length) {
				stop();
				res.end(chunk);
				return;
			}
			res.write(chunk);
			timer = setTimeout(step, everyMs);
		};
		this.drips.add(stop);
		res.once('close', stop);
		step();
	}

	/** Marks the emulator closing, wakes every sleeper and stops every drip. */
	close(): void {
		this.closing = true;
		for (const wake of [...this.sleepers]) wake();
		for (const stop of [...this.drips]) stop();
	}
}

/**
 * The emulator in a process of its own, for benchmarks: the server's work then does not
 * share the event loop of the n8n engine being measured (as over a real network).
 * Started by a bench with `fork()`; sends `{ url }` once listening; ends when the parent
 * disconnects. Options as JSON in argv[2] (EmulatorOptions, e.g. `{"latencyMs":20}`).
 */
import { startEmulator } from '../emulator/server';
import { console, process } from '../host/globals';

async function main(): Promise<void> {
	const em = await startEmulator(JSON.parse(process.argv[2] ?? '{}'));
	process.send?.({ url: em.url });
	process.on('disconnect', () => {
		void em.close().then(() => process.exit(0));
	});
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});

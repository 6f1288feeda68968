/**
 * What n8n's queue mode needs besides n8n, for queue-restart.js: Redis and PostgreSQL from
 * Debian (apt-get, only when absent), each started on a free loopback port with its files in a
 * temporary folder, and stopped again. PostgreSQL runs as the `postgres` user (initdb
 * --auth=trust, pg_ctl with its socket in that folder and listen_addresses=127.0.0.1), with a
 * role and a database for n8n. Debian's packages, started on loopback.
 */
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { check } = require('./steps');
const { freePort, sleep } = require('./start');

/** The role, password and database n8n gets (loopback only, a throwaway cluster). */
const DB = { user: 'n8n', password: 'n8n', database: 'n8n' };

function run(cmd, argv, opts = {}) {
	const r = spawnSync(cmd, argv, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, ...opts });
	if (r.error) throw new Error(`${cmd} ${argv.join(' ')}: ${r.error.message}`);
	if (r.status !== 0)
		throw new Error(
			`${cmd} ${argv.join(' ')} exited with ${r.status ?? r.signal}\n${(r.stdout || '').slice(-2000)}${(r.stderr || '').slice(-2000)}`,
		);
	return r.stdout;
}

const has = (cmd) => spawnSync('sh', ['-c', `command -v ${cmd}`]).status === 0;

/** The newest PostgreSQL server Debian installed (/usr/lib/postgresql/<major>/bin), if any. */
function pgBin() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const majors = fs
		.readdirSync(root)
		.filter((d) => fs.existsSync(path.join(root, d, 'bin', 'initdb')))
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(root, majors[0], 'bin') : undefined;
}

/** apt-get install of whichever of redis-server and postgresql is missing; what it did. */
function ensurePackages() {
	const missing = [
		...(has('redis-server') && has('redis-cli') ? [] : ['redis-server']),
		...(pgBin() ? [] : ['postgresql']),
	];
	if (missing.length) {
		const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
		run('apt-get', ['update', '-qq'], { env });
		run('apt-get', ['install', '-y', '-qq', ...missing], { env });
	}
	const version = (cmd, argv) => run(cmd, argv).trim().split('\n')[0];
	return `${missing.length ? `installed ${missing.join(', ')} (apt-get)` : 'already installed'}: ${version('redis-server', ['--version']).replace(/ sha=.*/, '')}; ${version(path.join(pgBin(), 'postgres'), ['--version'])}`;
}

/** The `postgres` user's uid and gid (PostgreSQL refuses to run as root). */
function postgresUser() {
	return {
		uid: Number(run('id', ['-u', 'postgres']).trim()),
		gid: Number(run('id', ['-g', 'postgres']).trim()),
	};
}

/**
 * Starts Redis and PostgreSQL in a new temporary folder; returns what n8n and cleanup need:
 * { dir, redis: { port, pidFile }, pg: { port, data, socketDir, bin } }. `svc.dir` is set as
 * soon as the folder exists, so stopServices cleans up after a half-done start too.
 */
async function startServices(svc) {
	svc.dir = fs.mkdtempSync(path.join(os.tmpdir(), 'queue-services-'));
	fs.chmodSync(svc.dir, 0o755); // the postgres user must reach its folders inside
	await startRedis(svc);
	await startPostgres(svc);
	return svc;
}

async function startRedis(svc) {
	const port = await freePort();
	const pidFile = path.join(svc.dir, 'redis.pid');
	svc.redis = { port, pidFile };
	run('redis-server', [
		'--port',
		String(port),
		'--bind',
		'127.0.0.1',
		'--daemonize',
		'yes',
		'--pidfile',
		pidFile,
		'--dir',
		svc.dir,
		'--logfile',
		path.join(svc.dir, 'redis.log'),
		'--save',
		'',
		'--appendonly',
		'no',
	]);
	const deadline = Date.now() + 15_000;
	while (
		spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(port), 'ping'], {
			encoding: 'utf8',
		}).stdout?.trim() !== 'PONG'
	) {
		check(Date.now() < deadline, `Redis on 127.0.0.1:${port} does not answer PING after 15 s`);
		await sleep(200);
	}
}

async function startPostgres(svc) {
	const bin = pgBin();
	const user = postgresUser();
	const port = await freePort();
	const data = path.join(svc.dir, 'pg-data');
	const socketDir = path.join(svc.dir, 'pg-socket');
	for (const d of [data, socketDir]) {
		fs.mkdirSync(d, { mode: 0o700 });
		fs.chownSync(d, user.uid, user.gid);
	}
	const asPostgres = {
		...user,
		cwd: svc.dir,
		env: { ...process.env, HOME: svc.dir, LC_ALL: 'C.UTF-8' },
	};
	run(
		path.join(bin, 'initdb'),
		['-D', data, '--auth=trust', '-U', 'postgres', '-E', 'UTF8'],
		asPostgres,
	);
	svc.pg = { port, data, socketDir, bin, asPostgres };
	run(
		path.join(bin, 'pg_ctl'),
		[
			'-D',
			data,
			'-l',
			path.join(socketDir, 'postgres.log'),
			'-w',
			'-t',
			'60',
			'-o',
			`-p ${port} -k ${socketDir} -c listen_addresses=127.0.0.1`,
			'start',
		],
		asPostgres,
	);
	psql(svc, `CREATE ROLE ${DB.user} LOGIN PASSWORD '${DB.password}'`, 'postgres');
	psql(svc, `CREATE DATABASE ${DB.database} OWNER ${DB.user}`, 'postgres');
}

/** One SQL statement through psql (as the `postgres` superuser, over the socket); its rows as text. */
function psql(svc, sql, database = DB.database) {
	return run(
		path.join(svc.pg.bin, 'psql'),
		[
			'-h',
			svc.pg.socketDir,
			'-p',
			String(svc.pg.port),
			'-U',
			'postgres',
			'-d',
			database,
			'-v',
			'ON_ERROR_STOP=1',
			'-At',
			'-c',
			sql,
		],
		svc.pg.asPostgres,
	).trim();
}

/** The environment every n8n process of queue mode gets for these services. */
function serviceEnv(svc) {
	return {
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: '127.0.0.1',
		DB_POSTGRESDB_PORT: String(svc.pg.port),
		DB_POSTGRESDB_DATABASE: DB.database,
		DB_POSTGRESDB_USER: DB.user,
		DB_POSTGRESDB_PASSWORD: DB.password,
		QUEUE_BULL_REDIS_HOST: '127.0.0.1',
		QUEUE_BULL_REDIS_PORT: String(svc.redis.port),
	};
}

/** Stops PostgreSQL and Redis and removes the temporary folder; what it did. */
async function stopServices(svc) {
	const done = [];
	if (svc.pg && fs.existsSync(path.join(svc.pg.data, 'postmaster.pid'))) {
		const r = spawnSync(
			path.join(svc.pg.bin, 'pg_ctl'),
			['-D', svc.pg.data, '-m', 'fast', '-w', '-t', '30', 'stop'],
			{ ...svc.pg.asPostgres, encoding: 'utf8' },
		);
		done.push(
			r.status === 0 ? 'PostgreSQL stopped' : `PostgreSQL: pg_ctl stop exited with ${r.status}`,
		);
	}
	if (svc.redis && fs.existsSync(svc.redis.pidFile)) {
		const pid = Number(fs.readFileSync(svc.redis.pidFile, 'utf8').trim());
		spawnSync('redis-cli', ['-h', '127.0.0.1', '-p', String(svc.redis.port), 'shutdown', 'nosave']);
		for (let i = 0; i < 50 && alive(pid); i++) await sleep(100);
		if (alive(pid)) process.kill(pid, 'SIGKILL');
		done.push('Redis stopped');
	}
	if (svc.dir) {
		fs.rmSync(svc.dir, { recursive: true, force: true });
		done.push('services folder removed');
	}
	svc.dir = svc.pg = svc.redis = undefined;
	return done.join(', ');
}

function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

module.exports = { ensurePackages, startServices, stopServices, serviceEnv, psql };

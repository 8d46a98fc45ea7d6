// Shared setup for the browser tests (tests/web/*.js) and bench/web-speed.js:
// start a real build/perflabd on a free loopback port with a fresh SQLite
// database in a temp dir, create keys, populate it through the API (patch
// submission, the runner protocol, log and series import), and drive
// Debian's chromium with playwright-core. Not a test itself (tests/run.sh
// only runs tests/web/*.js).
'use strict';
const { spawn, execFileSync } = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const TOP = path.resolve(__dirname, '../../..');
// PERFLABD=/path overrides the binary (e.g. a snapshot while build/ is rebuilt).
const PERFLABD = process.env.PERFLABD || path.join(TOP, 'build/perflabd');
const WEB = path.join(TOP, 'web');
const SHOTS = path.join(TOP, 'build/screenshots');

const SKIP = 77;

function skip(reason) {
	console.log('SKIP: ' + reason);
	process.exit(SKIP);
}
function fail(msg) {
	console.log('FAIL: ' + msg);
	process.exit(1);
}
// Run main(); any throw fails the test, cleanup always runs.
function run(main) {
	const cleanups = [];
	const done = async (code) => {
		for (const f of cleanups.reverse()) { try { await f(); } catch { /* ignore */ } }
		process.exit(code);
	};
	process.on('SIGTERM', () => done(1));
	main((f) => cleanups.push(f)).then(() => done(0), (e) => {
		if (e && e.skip) { console.log('SKIP: ' + e.message); return done(SKIP); }
		console.log('FAIL: ' + (e && e.stack || e));
		return done(1);
	});
}
class Skip extends Error { constructor(m) { super(m); this.skip = true; } }

function freePort() {
	return new Promise((resolve, reject) => {
		const s = net.createServer();
		s.unref();
		s.on('error', reject);
		s.listen(0, '127.0.0.1', () => {
			const { port } = s.address();
			s.close(() => resolve(port));
		});
	});
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// A running daemon: {url, db, dir, keys:{admin, submit, runner}, api(), stop()}
async function startDaemon(onCleanup, opts = {}) {
	if (!fs.existsSync(PERFLABD)) throw new Skip('build/perflabd is absent (run make)');
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'perflab-web-'));
	const db = path.join(dir, 'perflab.db');
	const keys = {};
	const mk = (role, name) => {
		const out = execFileSync(PERFLABD, ['key', 'create', '--role', role, name, '--db', db], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
		const m = out.match(/plk_[A-Za-z0-9_-]+/);
		if (!m) throw new Error('perflabd key create printed no key: ' + out);
		return m[0];
	};
	keys.admin = mk('admin', 'web-admin');
	keys.submit = mk('submit', 'web-submitter');
	for (let i = 0; i < (opts.runners || 1); i++) keys['runner' + (i || '')] = mk('runner', 'web-runner' + i);
	const port = await freePort();
	const url = 'http://127.0.0.1:' + port;
	const log = fs.openSync(path.join(dir, 'perflabd.log'), 'a');
	const proc = spawn(PERFLABD, ['--listen', '127.0.0.1:' + port, '--db', db, '--web', WEB, ...(opts.args || [])], { stdio: ['ignore', log, log] });
	let exited = null;
	proc.on('exit', (c, s) => { exited = c ?? s; });
	onCleanup(async () => {
		if (exited === null) {
			proc.kill('SIGTERM');
			for (let i = 0; i < 50 && exited === null; i++) await sleep(100);
			if (exited === null) proc.kill('SIGKILL');
		}
		if (!process.env.KEEP) fs.rmSync(dir, { recursive: true, force: true });
		else console.log('kept ' + dir);
	});
	for (let i = 0; ; i++) {
		if (exited !== null) throw new Error('perflabd exited (' + exited + '): ' + fs.readFileSync(path.join(dir, 'perflabd.log'), 'utf8').slice(-2000));
		try {
			const r = await fetch(url + '/healthz');
			if (r.ok) break;
		} catch { /* not yet */ }
		if (i > 100) throw new Error('perflabd did not answer /healthz within 10 s');
		await sleep(100);
	}
	const d = { url, db, dir, keys, proc, log: () => fs.readFileSync(path.join(dir, 'perflabd.log'), 'utf8') };
	// d.api(method, path, {key, json, body, type, ok:[statuses]}) -> {status, json, text}
	d.api = async (method, p, o = {}) => {
		const headers = { Authorization: 'Bearer ' + (o.key || keys.admin) };
		let body = o.body;
		if (o.json !== undefined) { body = JSON.stringify(o.json); headers['Content-Type'] = 'application/json'; }
		else if (o.type) headers['Content-Type'] = o.type;
		const r = await fetch(url + p, { method, headers, body });
		const text = await r.text();
		let json = null;
		try { json = JSON.parse(text); } catch { /* not JSON */ }
		const ok = o.ok || [200, 201, 204];
		if (!ok.includes(r.status)) {
			const e = new Error(method + ' ' + p + ' -> ' + r.status + ' ' + text.slice(0, 300));
			e.status = r.status;
			throw e;
		}
		return { status: r.status, json, text };
	};
	return d;
}

// Does the daemon have this endpoint? (404/405 from the route table = no)
async function hasEndpoint(d, method, p) {
	const r = await fetch(d.url + p, { method, headers: { Authorization: 'Bearer ' + d.keys.admin, 'Content-Type': 'application/json' }, body: method === 'GET' ? undefined : '{}' });
	const t = await r.text();
	if (r.status === 405) return false;
	if (r.status === 404 && /no such (route|endpoint|page)|not found/i.test(t) && !/experiment|series|alert/i.test(t)) return false;
	return true;
}

// ---- data generation ---------------------------------------------------

function rng(seed) {
	let s = seed >>> 0 || 1;
	return () => {
		s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0;
		return s / 4294967296;
	};
}
function gauss(r) {
	return Math.sqrt(-2 * Math.log(r() + 1e-12)) * Math.cos(2 * Math.PI * r());
}

const KSYMS = ['blk_mq_get_tag', '__blk_mq_alloc_request', '__blk_mq_free_request', '__do_sys_io_uring_enter',
	'io_submit_sqes', 'io_issue_sqe', 'io_read', 'blkdev_read_iter', 'nvme_queue_rqs', 'nvme_poll',
	'io_do_iopoll', 'blk_mq_end_request_batch', 'bio_alloc_bioset', 'submit_bio_noacct', 'iov_iter_revert'];

// A perflab-bench JSON (docs/contracts.md section 1).
function benchJSON({ seconds = 10, warmup = 2, iops = 3500000, noise = 0.003, seed = 1, nsyms = 40, delta = 0, evil = false } = {}) {
	const r = rng(seed);
	const samples = [];
	for (let t = 1; t <= seconds; t++) {
		const f = t <= warmup ? 0.93 : 1;
		samples.push({ t, iops: Math.round(iops * f * (1 + noise * gauss(r))), ios_per_submit: 32, ios_per_reap: 31, inflight: 75 + Math.floor(r() * 20) });
	}
	const m = samples.filter((s) => s.t > warmup).map((s) => s.iops);
	const mean = m.reduce((a, b) => a + b, 0) / m.length;
	const symbols = [];
	let total = 0;
	for (let i = 0; i < nsyms; i++) {
		const name = i < KSYMS.length ? KSYMS[i] : 'ksym_' + i;
		const base = Math.round(20000 / (i + 1)) + 5;
		// The patch moves cost from symbol 1 to symbol 0 (same total), so
		// every other symbol stays within run-to-run noise.
		const shift = i === 0 ? delta : i === 1 ? -2 * delta : 0;
		const n = Math.max(1, Math.round(base * (1 + shift + 0.03 * gauss(r))));
		symbols.push({ dso: i % 7 === 6 ? 'perflab-bench' : '[kernel.kallsyms]', sym: name, samples: n });
		total += n;
	}
	if (evil) symbols.push({ dso: '[kernel.kallsyms]', sym: '<img src=x onerror=window.__xss=1>', samples: 50 });
	const stacks = [
		{ stack: 'entry_SYSCALL_64;do_syscall_64;__x64_sys_io_uring_enter;__do_sys_io_uring_enter;io_submit_sqes;io_issue_sqe;io_read;blkdev_read_iter', samples: Math.round(total * 0.4) },
		{ stack: 'entry_SYSCALL_64;do_syscall_64;__x64_sys_io_uring_enter;__do_sys_io_uring_enter;io_do_iopoll;nvme_poll', samples: Math.round(total * 0.3 * (1 + delta)) },
		{ stack: 'entry_SYSCALL_64;do_syscall_64;__x64_sys_io_uring_enter;__do_sys_io_uring_enter;io_submit_sqes;blk_mq_get_tag', samples: Math.round(total * 0.2) },
	];
	if (evil) stacks.push({ stack: 'entry_SYSCALL_64;<img src=x onerror=window.__xss=1>', samples: 500 });
	return {
		version: 1, tool: 'perflab-bench',
		params: { target: '/dev/nullb0', depth: 128, submit_batch: 32, complete_batch: 32, bs: 512, polled: true, fixedbufs: true, regfiles: true, random: true, threads: 1, runtime: seconds, warmup, seed: 1, ios: 0 },
		ring_flags: ['SINGLE_ISSUER', 'COOP_TASKRUN', 'DEFER_TASKRUN'],
		kernel: '6.1.0-perflab',
		device: { name: 'nullb0', model: '', firmware: '', logical_block_size: 512, io_poll: 1, scheduler: 'none', size_bytes: 1073741824 },
		samples,
		summary: { warmup, seconds: seconds - warmup, mean, median: mean, stddev: mean * noise, total_ios: Math.round(mean * seconds), ns_per_io: 1e9 / mean, ios_measured: 0, window_ios: Math.round(mean * (seconds - warmup)), eagain: 0 },
		cpu: { user_ns_per_io: 12.5, sys_ns_per_io: 1e9 / mean - 12.5 },
		profile: { event: 'cpu-clock', total: total + 100, lost: 0, symbols, stacks },
	};
}

const PATCH = (subject, extra = '') => `From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
From: Jens Axboe <axboe@kernel.dk>
Date: Fri, 10 Sep 2021 09:04:27 -0600
Subject: [PATCH] ${subject}
Message-Id: <web-test-${Math.random().toString(36).slice(2)}@kernel.dk>

Test patch for the perflab web dashboards.${extra}
---
 block/blk-mq-tag.c | 2 +-
 1 file changed, 1 insertion(+), 1 deletion(-)

diff --git a/block/blk-mq-tag.c b/block/blk-mq-tag.c
index 1111111..2222222 100644
--- a/block/blk-mq-tag.c
+++ b/block/blk-mq-tag.c
@@ -10,7 +10,7 @@ static int bt_iter(struct sbitmap *bitmap, unsigned int bitnr, void *data)
 	struct blk_mq_tags *tags = iter_data->tags;
 	struct blk_mq_hw_ctx *hctx = iter_data->hctx;
 	struct request *rq;
-	bool ret = true;
+	bool ret = true; /* <script>window.__xss=1</script> */
 
 	if (!reserved)
 		bitnr += tags->nr_reserved_tags;
--
2.30.2
`;

// Submit a patch; returns the experiment id.
async function submitPatch(d, { subject = 'blk-mq: clear stale request in tags->rq[] before freeing', runs = 3, label = '', title = '' } = {}) {
	const q = new URLSearchParams({ runs: String(runs) });
	if (label) q.set('label', label);
	if (title) q.set('title', title);
	const r = await d.api('POST', '/api/v1/patches?' + q, { key: d.keys.submit, body: PATCH(subject), type: 'text/plain' });
	return r.json.id;
}

// Register a runner host (once per key).
async function registerHost(d, name = 'qemu-web-1', key = d.keys.runner, labels = ['qemu-icount']) {
	await d.api('POST', '/api/v1/hosts/register', {
		key, json: { name, labels, backend: 'qemu-icount', facts: { cpu_model: 'QEMU Virtual CPU (icount)', cpus: 2, mem_bytes: 2147483648, kernel: '6.1.0-perflab', nvme_model: 'QEMU NVMe Ctrl', nvme_firmware: '1.0', poll_ok: true } },
	});
	return name;
}

// Claim one job and upload a generated result. Returns the job or null.
async function runOneJob(d, host, key = d.keys.runner, gen = {}) {
	const c = await d.api('POST', '/api/v1/jobs/claim', { key, json: { host, wait: 0 }, ok: [200, 204] });
	if (c.status === 204 || !c.json) return null;
	const job = c.json;
	const isControl = job.variant && job.variant.is_control;
	await d.api('POST', '/api/v1/jobs/' + job.job_id + '/heartbeat', { key, json: { lease: job.lease, phase: 'run', message: 'perflab-bench running' } });
	const bench = benchJSON(Object.assign({ seed: job.job_id * 7919 + 1, iops: isControl ? 3540000 : 3520000, delta: isControl ? 0 : 0.3 }, typeof gen === 'function' ? gen(job) : gen));
	await d.api('POST', '/api/v1/jobs/' + job.job_id + '/result', {
		key, ok: [200, 201],
		json: {
			lease: job.lease, bench,
			build: { cache_key: 'web-test-' + (job.variant ? job.variant.name : 'v'), cached: false, seconds: 42.5, log: 'make -j2 bzImage\n  CC      block/blk-mq-tag.o <tag>\n  LD      vmlinux\nKernel: arch/x86/boot/bzImage is ready\n' },
			boot_log: '[    0.000000] Linux version 6.1.0-perflab\n[    0.512000] nvme nvme0: 1/0/1 default/read/poll queues\n',
			timings: { build_s: 42.5, boot_s: 1.8, run_s: bench.samples.length },
		},
	});
	return job;
}

// Wait as a client would until experiment @id is analysed: its last
// result only marks it for the daemon's analysis worker.
async function waitAnalysed(d, id, timeout = 30000) {
	const t0 = Date.now();
	for (;;) {
		const e = (await d.api('GET', '/api/v1/experiments/' + id)).json;
		if (e && e.analysis_pending === false) return e;
		if (Date.now() - t0 > timeout) throw new Error('experiment ' + id + ' not analysed within ' + timeout + ' ms');
		await sleep(50);
	}
}

// Run jobs until none is left, also the runs an analysis adds to an
// inconclusive experiment: when the queue is empty, wait for the
// analyses of the experiments run here, then look again.
async function runAllJobs(d, host, key, gen, max = 1000) {
	const exps = new Set();
	let n = 0;
	while (n < max) {
		const job = await runOneJob(d, host, key, gen);
		if (job) {
			exps.add(job.experiment_id);
			n++;
			continue;
		}
		for (const id of exps) await waitAnalysed(d, id);
		exps.clear();
		const again = await runOneJob(d, host, key, gen);
		if (!again) break;
		exps.add(again.experiment_id);
		n++;
	}
	return n;
}

// ---- browser ---------------------------------------------------------------

async function launchBrowser(onCleanup) {
	let chromium;
	try {
		({ chromium } = require(path.join(WEB, 'node_modules/playwright-core')));
	} catch (e) {
		throw new Skip('playwright-core is not installed in web/node_modules (run make deps): ' + e.message);
	}
	if (!fs.existsSync('/usr/bin/chromium')) throw new Skip('/usr/bin/chromium is absent (run make deps)');
	let browser;
	try {
		browser = await chromium.launch({
			executablePath: '/usr/bin/chromium', headless: true, timeout: 60000,
			args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
		});
	} catch (e) {
		throw new Skip('Chromium cannot start: ' + String(e.message).split('\n')[0]);
	}
	onCleanup(() => browser.close());
	return browser;
}

// A page logged in with @key; collects console errors and page errors.
async function newPage(browser, d, key = d.keys.admin, opts = {}) {
	const ctx = await browser.newContext({ viewport: opts.viewport || { width: 1366, height: 900 }, colorScheme: opts.colorScheme || 'light' });
	if (key) await ctx.addInitScript((k) => { if (!sessionStorage.getItem('perflab.test.init')) { localStorage.setItem('perflab.key', k); sessionStorage.setItem('perflab.test.init', '1'); } }, key);
	const page = await ctx.newPage();
	page.errors = [];
	page.on('console', (m) => { if (m.type() === 'error') page.errors.push('console: ' + m.text()); });
	page.on('pageerror', (e) => page.errors.push('pageerror: ' + e.message));
	page.on('requestfailed', (r) => { if (!/\/api\/v1\/events/.test(r.url())) page.errors.push('requestfailed: ' + r.url() + ' ' + (r.failure() && r.failure().errorText)); });
	return page;
}

// Open a route and wait until the page says it has rendered.
async function open(page, d, route, timeout = 15000) {
	const before = await page.evaluate(() => document.getElementById('app') && document.getElementById('app').dataset.ready).catch(() => undefined);
	const url = d.url + '/#' + route;
	if (page.url().startsWith(d.url + '/')) {
		// Same hash: no hashchange event, so render explicitly.
		await page.evaluate((u) => { if (location.hash === '#' + u) window.perflab.render(); else location.hash = u; }, route);
	} else {
		await page.goto(url);
	}
	await page.waitForFunction((b) => {
		const a = document.getElementById('app');
		return a && a.dataset.ready && a.dataset.ready !== b;
	}, before, { timeout });
}

async function shot(page, name) {
	fs.mkdirSync(SHOTS, { recursive: true });
	const p = path.join(SHOTS, name + '.png');
	await page.screenshot({ path: p, fullPage: true });
	return p;
}

// Number of non-transparent pixels of every canvas under @selector.
function canvasPixels(page, selector) {
	return page.evaluate((sel) => {
		let n = 0;
		for (const c of document.querySelectorAll(sel + ' canvas')) {
			if (!c.width || !c.height) continue;
			const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
			for (let i = 3; i < d.length; i += 4) if (d[i] !== 0) n++;
		}
		return n;
	}, selector);
}

module.exports = {
	TOP, WEB, SHOTS, SKIP, Skip, skip, fail, run, sleep, freePort,
	startDaemon, hasEndpoint, benchJSON, PATCH, submitPatch, registerHost, runOneJob, runAllJobs, waitAnalysed,
	launchBrowser, newPage, open, shot, canvasPixels, rng, gauss,
};

// A lab with one finished experiment (runs with profiles), one queued
// experiment and a registered host. Returns {done, queued, host}.
async function populateLab(d, { runs = 3, seconds = 12, nsyms = 40 } = {}) {
	const host = await registerHost(d);
	const done = await submitPatch(d, { runs, subject: 'blk-mq: clear stale request in tags->rq[] before freeing' });
	// An inconclusive verdict schedules more runs (up to max_runs): run
	// jobs until the queue is empty.
	const n = await runAllJobs(d, host, d.keys.runner, { seconds, nsyms });
	if (n < 2 * runs) throw new Error('expected at least ' + 2 * runs + ' jobs, ran ' + n);
	const e = (await d.api('GET', '/api/v1/experiments/' + done)).json;
	if (e.state !== 'done') throw new Error('experiment ' + done + ' is ' + e.state + ' after ' + n + ' runs');
	const queued = await submitPatch(d, { runs: 2, subject: 'iov_iter: track truncated size', label: 'nvme-gen4' });
	return { done, queued, host };
}

// An experiment (base, tag; 2 runs each) whose runs carry the exact
// profiles of tests/fixtures/perfdiff/exact.json and sampled ones, run
// on @host (registered here when not given; no other job may be queued).
// Returns its id.
async function exactExperiment(d, title = 'exact profiles', host = null) {
	const fix = JSON.parse(fs.readFileSync(path.join(TOP, 'tests/fixtures/perfdiff/exact.json'), 'utf8'));
	host = host || await registerHost(d);
	const e = await d.api('POST', '/api/v1/experiments', { key: d.keys.submit, json: { title, runs: 2, max_runs: 2, variants: [{ name: 'base' }, { name: 'tag' }] } });
	for (let n = 0; n < 8; n++) {
		const c = await d.api('POST', '/api/v1/jobs/claim', { key: d.keys.runner, json: { host, wait: 0 }, ok: [200, 204] });
		if (c.status === 204) break;
		const job = c.json;
		const bench = benchJSON({ seed: job.job_id, seconds: 6, nsyms: 20 });
		bench.exact_profile = fix[job.variant.name][job.run_index];
		await d.api('POST', '/api/v1/jobs/' + job.job_id + '/result', { key: d.keys.runner, ok: [201], json: { lease: job.lease, bench } });
	}
	return e.json.id;
}

// Daily points with a planted step, for POST /api/v1/series/import.
function seriesPoints({ days = 400, start = Date.UTC(2025, 0, 1) / 1000, value = 3500000, step = -0.04, at = 0.6, noise = 0.003, seed = 3 } = {}) {
	const r = rng(seed);
	const pts = [];
	for (let i = 0; i < days; i++) {
		const v = value * (i >= Math.floor(days * at) ? 1 + step : 1) * (1 + noise * gauss(r));
		pts.push({ time: start + i * 86400, value: Math.round(v), label: 'v6.1-' + i });
	}
	return pts;
}

module.exports.populateLab = populateLab;
module.exports.exactExperiment = exactExperiment;
module.exports.seriesPoints = seriesPoints;

// Description: web/js/model.js, the one place of the web UI that knows the
// API's field names, reads only names the daemon sends. Every normaliser
// runs in the browser on real answers of a daemon (an analysed experiment
// with a regression alert, one whose patch did not apply, a queued one,
// the experiment list, hosts with an A/A calibration, alerts after a
// triage, an imported series with its change point) and, for tracks and
// bisections, on the documented fixtures (tests/fixtures/bisect/),
// through a Proxy that records each member read; a member that no answer
// given to that normaliser ever had fails the test, with its path
// (prog.planned, submitter_name, lkp_text, last_heartbeat were such names);
// perfDiff reads a sampled and an exact perf diff.
// The experiment page shows the daemon's bench command line and LKP
// table, not a copy of its own.
'use strict';
const fs = require('fs');
const path = require('path');
const L = require('./lib/lib.js');

const FX = path.join(__dirname, '../fixtures/bisect');

// An experiment whose patched variant does not apply (the runner says so).
async function failedVariant(d, host) {
	const id = await L.submitPatch(d, { runs: 1, subject: 'blk-mq: a patch against another tree' });
	for (let i = 0; i < 4; i++) {
		const c = await d.api('POST', '/api/v1/jobs/claim', { key: d.keys.runner, json: { host, wait: 0 }, ok: [200, 204] });
		if (c.status === 204) break;
		const job = c.json;
		if (job.variant.is_control)
			await d.api('POST', '/api/v1/jobs/' + job.job_id + '/result', { key: d.keys.runner, ok: [200, 201], json: { lease: job.lease, bench: L.benchJSON({ seconds: 5, seed: 3 }), build: { cache_key: 'k', cached: true, seconds: 0, log: '' }, boot_log: '', timings: { build_s: 0, boot_s: 1, run_s: 5 } } });
		else
			await d.api('POST', '/api/v1/jobs/' + job.job_id + '/fail', { key: d.keys.runner, json: { lease: job.lease, reason: 'patch_apply', log: 'error: patch failed: block/blk-mq-tag.c:10' } });
	}
	return id;
}

L.run(async (onCleanup) => {
	const d = await L.startDaemon(onCleanup);
	const browser = await L.launchBrowser(onCleanup);
	const get = async (p) => (await d.api('GET', p)).json;
	const lab = await L.populateLab(d, { runs: 3, seconds: 8, nsyms: 5 });
	const failed = await failedVariant(d, lab.host);
	// The host's noise: an A/A calibration of two runs a side.
	await d.api('POST', '/api/v1/calibrations', { key: d.keys.submit, json: { host: lab.host, kind: 'aa', runs: 2 } });
	await L.runAllJobs(d, lab.host, d.keys.runner, { seconds: 5 });
	// A change point (and its alert) in an imported series.
	const imp = (await d.api('POST', '/api/v1/series/import', { json: { name: 'model-fields', metric: 'iops', points: L.seriesPoints({ days: 120 }) } })).json;
	const alerts = (await get('/api/v1/alerts')).alerts;
	if (!alerts.length) throw new Error('no alert was raised to read');
	await d.api('PATCH', '/api/v1/alerts/' + alerts[0].id, { key: d.keys.submit, json: { state: 'acknowledged', note: 'looking' } });

	const experiments = [];
	for (const id of [lab.done, lab.queued, failed]) experiments.push(await get('/api/v1/experiments/' + id));
	experiments.push(...(await get('/api/v1/experiments')).experiments);
	const hosts = (await get('/api/v1/hosts')).hosts;
	if (!hosts.some((h) => h.calibration.length)) throw new Error('the A/A left the host uncalibrated: ' + JSON.stringify(hosts));
	const exact = await L.exactExperiment(d, 'exact profiles', lab.host);
	const alertsNow = (await get('/api/v1/alerts')).alerts;
	const alertOne = await get('/api/v1/alerts/' + alerts[0].id);
	const series = [...(await get('/api/v1/series')).series, await get('/api/v1/series?id=' + imp.series_id),
		await get('/api/v1/series?id=' + imp.series_id + '&format=pairs')];
	const track = JSON.parse(fs.readFileSync(path.join(FX, 'track.json'), 'utf8'));
	const bisection = JSON.parse(fs.readFileSync(path.join(FX, 'bisection.json'), 'utf8'));
	// The list's shape and a scheduled track (docs/contracts.md section 5).
	const listed = Object.assign({}, track, { npoints: 3, nchange_points: 1, last: { commit: track.points[0].commit, value: 1 } });
	delete listed.points;
	delete listed.change_points;
	const scheduled = Object.assign({}, track, { every: { seconds: 3600 } });
	const inputs = {
		normExperiment: experiments,
		normHost: hosts,
		normAlert: [...alertsNow, alertOne],
		normSeries: series,
		normTrack: [track, listed, scheduled],
		normBisection: [bisection],
		normPatch: [await get('/api/v1/patches/' + experiments[0].variants[1].patches[0].id)],
		perfDiff: [await get('/api/v1/experiments/' + lab.done + '/perf-diff'), await get('/api/v1/experiments/' + exact + '/perf-diff')],
	};

	const page = await L.newPage(browser, d);
	await L.open(page, d, '/experiments/' + lab.done);
	// In the page, where model.js runs with the served metric table.
	const reads = await page.evaluate(async (inputs) => {
		const model = await import('/js/model.js');
		const out = {};
		// The normalisers normExperiment hands its members to: a path is
		// the normaliser's, whichever answer the object came in.
		const alias = {
			'normExperiment.comparison[]': 'normComparison', 'normExperiment.verdicts[]': 'normComparison',
			'normExperiment.runs[]': 'normRun', 'normExperiment.jobs[]': 'normJob',
			'normExperiment.variants[].patches[]': 'normPatch',
		};
		// Records [path, present] for every member read below @o.
		const track = (o, p, rec) => {
			if (o === null || typeof o !== 'object') return o;
			return new Proxy(o, {
				get(t, k, r) {
					if (typeof k === 'symbol') return Reflect.get(t, k, r);
					if (Array.isArray(t)) {
						if (!/^\d+$/.test(k)) return Reflect.get(t, k, r);
						return track(t[k], alias[p + '[]'] || p + '[]', rec);
					}
					rec.push([p + '.' + k, Object.prototype.hasOwnProperty.call(t, k)]);
					return track(t[k], p + '.' + k, rec);
				},
			});
		};
		for (const [fn, list] of Object.entries(inputs)) {
			const rec = [];
			for (const o of list) model[fn](track(o, fn, rec));
			out[fn] = rec;
		}
		// What the page shows: the daemon's command line and table.
		const shown = (sel) => { const el = document.querySelector(sel); return el ? el.textContent : ''; };
		out.shown = { bench: shown('#bench-command'), lkp: shown('#lkp') };
		return out;
	}, inputs);

	// A member is sent when some answer given to the normaliser had it.
	const seen = new Map();
	let n = 0;
	for (const [fn, rec] of Object.entries(reads)) {
		if (fn === 'shown') continue;
		for (const [p, present] of rec) {
			n++;
			seen.set(p, (seen.get(p) || false) || present);
		}
	}
	const never = [...seen].filter(([, present]) => !present).map(([p]) => p).sort();
	console.log(seen.size + ' member paths read (' + n + ' reads) on ' +
		Object.values(inputs).reduce((a, l) => a + l.length, 0) + ' answers');
	if (seen.size < 100) throw new Error('too few reads recorded: ' + [...seen.keys()].join(' '));
	if (never.length) throw new Error('model.js reads members the daemon never sent:\n  ' + never.join('\n  '));

	const e = experiments[0];
	if (!e.bench_command || reads.shown.bench !== e.bench_command)
		throw new Error('the page shows the bench as "' + reads.shown.bench + '", the daemon says "' + e.bench_command + '"');
	if (!e.lkp || !reads.shown.lkp.startsWith(e.lkp))
		throw new Error('the page does not show the daemon\'s LKP table:\n' + reads.shown.lkp + '\nvs\n' + e.lkp);
	if (page.errors.length) throw new Error(page.errors.join('; '));
	console.log('ok: every member model.js reads is one the daemon sends; the page shows the daemon\'s bench command and LKP table');
});

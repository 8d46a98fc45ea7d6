// perflab web: turn API answers into the shapes the pages draw. The API is
// documented in docs/api.md (and docs/contracts.md for tracks and
// bisections); this file is the one place that knows its field names, and
// it reads only names the daemon sends (tests/web/model_fields.js checks
// every name read here against real answers of a daemon). Optional fields
// may be absent or null.
import { arr, num, median, toUnix } from './util.js';
import { metricDefs, metricOf, metricRank, higherIsWorse } from './metrics.js';

const str = (...vs) => {
	for (const v of vs) if (typeof v === 'string' && v !== '') return v;
	return '';
};
const text = (v) => String(v ?? '');
const obj = (v) => (v && typeof v === 'object' && !Array.isArray(v) ? v : null);

// A comparison: a row of an experiment's "comparison" (with the analysis's
// "result") or of a list item's "verdicts".
export function normComparison(c) {
	if (!obj(c)) return null;
	const res = obj(c.result) || {};
	return {
		variant: str(c.variant),
		variantId: num(c.variant_id),
		control: str(c.control),
		verdict: str(c.verdict),
		metric: str(c.metric) || 'iops',
		delta: num(c.delta_pct),
		ciLow: num(c.ci_low),
		ciHigh: num(c.ci_high),
		p: num(c.p_value),
		mde: num(c.mde_pct),
		runs: num(c.runs),
		baseMean: num(res.control_median),
		newMean: num(res.variant_median),
		summary: str(res.summary),
		mdeFromHost: res.mde_from_host,
		// No calibration and identical runs. Rows stored before the flag
		// carry none and mde_pct 0 for that case; with the flag false an
		// MDE of 0 means the runs were identical (exact counts, no noise).
		noNoise: (res.no_noise_estimate ?? num(c.mde_pct) === 0) === true,
		reason: str(res.reason),
		unit: str(res.unit),
		text: str(res.text),
		raw: c,
	};
}

export function normRun(r) {
	// Per-second ns/IO is not measured; for one thread it is 1e9 / IOPS.
	const samples = arr(r.samples).map((s) => {
		const iops = num(s.iops);
		return {
			t: num(s.t), iops, ns: iops ? 1e9 / iops : null,
			perSubmit: num(s.ios_per_submit), perReap: num(s.ios_per_reap), inflight: num(s.inflight),
		};
	}).filter((s) => s.t !== null);
	const summary = obj(r.summary) || {};
	const timings = obj(r.timings) || {};
	let mean = num(summary.mean);
	const warmup = num(summary.warmup) ?? 0;
	if (mean === null && samples.length) {
		const m = samples.filter((s) => s.t > warmup && s.iops !== null);
		if (m.length) mean = m.reduce((a, s) => a + s.iops, 0) / m.length;
	}
	return {
		id: num(r.id),
		jobId: num(r.job_id),
		index: num(r.run_index) ?? 0,
		variant: str(r.variant),
		variantId: num(r.variant_id),
		mean,
		median: num(summary.median),
		stddev: num(summary.stddev),
		ns: num(summary.ns_per_io),
		warmup,
		samples,
		kernel: str(r.kernel),
		// the command perflab-bench ran, rendered by the daemon
		benchCommand: str(r.bench_command),
		// the boot the run came from (toggle experiments: several runs a boot)
		bootId: str(r.boot_id),
		bootPos: num(r.boot_pos),
		created: r.created_at,
		timings: { build: num(timings.build_s), boot: num(timings.boot_s), run: num(timings.run_s) },
		// every metric of the served table, by name (null: not reported)
		metrics: Object.fromEntries(metricDefs().map((m) => [m.name, metricOf(r, m)])),
		raw: r,
	};
}

export function normPatch(p) {
	if (!obj(p)) return null;
	return {
		id: num(p.id),
		subject: str(p.subject),
		author: str(p.author),
		messageId: str(p.message_id),
		date: str(p.date),
		sha256: str(p.sha256),
		// GET /patches/{id} has the text; an experiment's patches do not
		raw: typeof p.raw === 'string' ? p.raw : null,
		files: arr(p.files).map((f) => ({
			path: str(f.new_path, f.old_path),
			added: num(f.added), removed: num(f.removed), hunks: num(f.hunks),
		})),
	};
}

export function normJob(j) {
	return {
		id: num(j.id),
		variant: str(j.variant),
		variantId: num(j.variant_id),
		runIndex: num(j.run_index),
		seq: num(j.seq),
		state: str(j.state),
		attempt: num(j.attempt),
		phase: str(j.phase),
		message: str(j.message),
		failureReason: str(j.failure_reason),
		failureLog: str(j.failure_log),
		failureLogBytes: num(j.failure_log_bytes),
		host: str(j.host),
	};
}

// A LAVA job that ran one attempt of a perflab job (LAVA-bound labels).
export function normLavaJob(l) {
	return {
		jobId: num(l.job_id),
		attempt: num(l.attempt),
		lavaId: num(l.lava_id),
		lab: str(l.lab),
		url: str(l.url),
		state: str(l.state),
		lavaState: str(l.lava_state),
		health: str(l.lava_health),
		outcome: str(l.outcome),
		message: str(l.message),
		callbacks: num(l.callbacks) || 0,
	};
}

// GET /experiments/{id}, or an item of GET /experiments (base and host
// are names there, progress counts jobs_done/jobs_failed, verdicts the
// newest comparisons).
export function normExperiment(e) {
	if (!obj(e)) return null;
	const variants = arr(e.variants).map((v, i) => ({
		id: num(v.id),
		name: str(v.name) || 'variant ' + i,
		isControl: v.is_control === true,
		state: str(v.state),
		cmdline: str(v.cmdline),
		setup: str(v.setup),
		settings: obj(v.settings) || {},
		failureReason: str(v.failure_reason),
		failureLog: str(v.failure_log),
		patches: arr(v.patches).map(normPatch).filter(Boolean),
		runs: [],
	}));
	if (variants.length && !variants.some((v) => v.isControl)) variants[0].isControl = true;
	for (const r of arr(e.runs).map(normRun)) {
		const v = variants.find((x) => x.id === r.variantId);
		if (v) v.runs.push(r);
	}
	for (const v of variants) v.runs.sort((a, b) => a.index - b.index);
	const patches = [];
	for (const v of variants) for (const p of v.patches) if (!patches.some((x) => x.id === p.id)) patches.push(p);

	const comparisons = arr(e.comparison ?? e.verdicts).map(normComparison).filter(Boolean);
	const jobs = arr(e.jobs).map(normJob);
	const lavaJobs = arr(e.lava_jobs).map(normLavaJob);
	const prog = obj(e.progress) || {};
	const runsPer = num(e.runs_planned);
	let planned = num(prog.jobs_total);
	if (planned === null && runsPer !== null) planned = runsPer * Math.max(variants.length, 2);
	const done = num(prog.jobs_done, prog.done);
	const base = obj(e.base);
	const host = obj(e.host);

	const subject = str(patches[0] && patches[0].subject);
	// Headline: the first compared variant's comparison on the metric
	// first in the table (IOPS).
	comparisons.sort((a, b) => metricRank(a.metric) - metricRank(b.metric));
	const firstVerdict = comparisons.find((c) => c.verdict) || null;
	return {
		id: num(e.id),
		title: str(e.title, subject) || 'experiment ' + e.id,
		subject,
		kind: str(e.kind),
		// every run is in and its verdicts are being computed: the API
		// keeps 'running' (docs/api.md), the page says what happens
		state: e.analysis_pending === true && str(e.state) === 'running' ? 'analysing' : str(e.state),
		submitter: str(e.submitter),
		host: host ? str(host.name) : str(e.host),
		label: str(e.label),
		backend: str(e.backend),
		base: base ? str(base.name) : str(e.base),
		config: str(e.config),
		bench: obj(e.bench),
		// the perflab-bench command line and the LKP table, as the
		// daemon renders them
		benchCommand: str(e.bench_command),
		lkp: str(e.lkp),
		runsPer,
		maxRuns: num(e.max_runs),
		toggle: e.toggle === true,
		runsPerBoot: num(e.runs_per_boot),
		planned, done,
		verdict: str(firstVerdict && firstVerdict.verdict),
		verdictMetric: firstVerdict ? firstVerdict.metric : '',
		delta: firstVerdict ? firstVerdict.delta : null,
		created: e.created_at, started: e.started_at, finished: e.finished_at,
		failure: str(e.failure_reason),
		variants, patches, jobs, lavaJobs, comparisons,
		failed: num(prog.jobs_failed, prog.failed) || 0,
		raw: e,
	};
}

export function runMeans(v) {
	return v.runs.map((r) => r.mean).filter((x) => x !== null);
}
export function variantMedian(v) {
	return median(runMeans(v));
}

// GET /hosts: a host with its newest calibration per backend, bench and
// metric and its newest ladder fit.
export function normHost(hst) {
	const f = obj(hst.facts) || {};
	const cal = arr(hst.calibration).map((c) => ({
		backend: str(c.backend), metric: str(c.metric), runs: num(c.runs),
		noise: num(c.noise_pct), mde: num(c.mde_pct), computed: c.computed_at,
		experimentId: num(c.experiment_id),
	}));
	const l = obj(hst.ladder);
	const job = obj(hst.current_job);
	return {
		id: num(hst.id),
		name: str(hst.name),
		state: str(hst.state),
		backend: str(hst.backend),
		labels: arr(hst.labels).map(String),
		lastSeen: hst.last_seen,
		registered: hst.registered_at,
		currentJob: job ? { id: num(job.id), experimentId: num(job.experiment_id), variant: str(job.variant),
			runIndex: num(job.run_index), phase: str(job.phase), leaseExpires: job.lease_expires } : null,
		facts: {
			cpu: str(f.cpu_model), cpus: num(f.cpus), mem: num(f.mem_bytes),
			kernel: str(f.kernel), nvme: str(f.nvme_model), fw: str(f.nvme_firmware),
			poll: f.poll_ok,
		},
		noise: cal.length ? cal[0].noise : null,
		mde: cal.length ? cal[0].mde : null,
		mdeRuns: cal.length ? cal[0].runs : null,
		calibration: cal,
		ladder: l ? { experimentId: num(l.experiment_id), metric: str(l.metric), slope: num(l.slope_pct),
			r2: num(l.r2), mdeUnits: num(l.mde_units), computed: l.computed_at } : null,
		raw: hst,
	};
}

// GET /alerts (updated_by: who changed it last) or /alerts/{id} (history).
export function normAlert(a) {
	const hist = arr(a.history).map((x) => ({ state: str(x.state), who: str(x.who), note: str(x.note), at: x.at }));
	const last = hist.length ? hist[hist.length - 1] : null;
	return {
		id: num(a.id),
		kind: str(a.kind),
		state: str(a.state),
		title: str(a.title),
		metric: str(a.metric),
		delta: num(a.delta_pct),
		experimentId: num(a.experiment_id),
		seriesId: num(a.series_id),
		changePointId: num(a.change_point_id),
		hostId: num(a.host_id),
		created: a.created_at,
		updated: a.updated_at,
		who: str(a.updated_by, last && last.who),
		history: hist,
		raw: a,
	};
}

// GET /series (counts of points and change points) or /series?id= (the
// points as rows, or [t, value] pairs, and the change points).
export function normSeries(s) {
	const pts = Array.isArray(s.points) ? s.points : [];
	const t = new Array(pts.length), v = new Array(pts.length);
	let n = 0;
	for (const p of pts) {
		const tt = Array.isArray(p) ? num(p[0]) : toUnix(p.t);
		const vv = Array.isArray(p) ? num(p[1]) : num(p.value);
		if (tt === null || vv === null) continue;
		t[n] = tt; v[n] = vv; n++;
	}
	t.length = n; v.length = n;
	// uPlot needs ascending x
	let sorted = true;
	for (let i = 1; i < n; i++) if (t[i] < t[i - 1]) { sorted = false; break; }
	if (!sorted) {
		const idx = t.map((_, i) => i).sort((a, b) => t[a] - t[b]);
		const t2 = idx.map((i) => t[i]), v2 = idx.map((i) => v[i]);
		t.splice(0, n, ...t2); v.splice(0, n, ...v2);
	}
	return {
		id: num(s.id),
		name: text(s.name),
		// the host's name is the hosts list's (series carry host_id)
		host: '',
		label: text(s.label),
		metric: str(s.metric) || 'iops',
		hostId: num(s.host_id),
		count: typeof s.points === 'number' ? s.points : n,
		cpCount: typeof s.change_points === 'number' ? s.change_points : null,
		points: { t, v },
		// keyset cursor of the older page of points (null: none)
		next: num(s.next),
		changePoints: arr(s.change_points).map((c) => ({
			id: num(c.id), t: toUnix(c.t), delta: num(c.delta_pct),
			before: num(c.mean_before), after: num(c.mean_after), p: num(c.p_value),
		})).filter((c) => c.t !== null),
	};
}

// A track's change-point options; migratedFrom: the old defaults that
// schema 17 moved it off (docs/verdicts.md), else null.
function normDetect(d) {
	const o = obj(d);
	if (!o) return null;
	const m = obj(o.migrated_from);
	return { minSize: num(o.min_size), maxP: num(o.max_p),
		migratedFrom: m ? { minSize: num(m.min_size), maxP: num(m.max_p), schema: num(m.schema) } : null };
}

// GET /tracks (npoints, nchange_points, last) or /tracks/{id} (points,
// change points, bisections); docs/contracts.md.
export function normTrack(t) {
	const every = obj(t.every) || {};
	const last = obj(t.last);
	return {
		id: num(t.id),
		base: text(t.base), ref: text(t.ref),
		label: text(t.label), backend: text(t.backend),
		runs: num(t.runs), head: text(t.head),
		every: every.seconds ? 'every ' + every.seconds + ' s' : every.commits > 1 ? 'every ' + every.commits + ' commits' : 'every commit',
		listed: Array.isArray(t.points),
		// the series' metric (ns_per_io when every run has it, else iops);
		// null until the first point is measured
		metric: str(t.metric),
		npoints: Array.isArray(t.points) ? t.points.filter((p) => num(p.value) !== null).length : num(t.npoints),
		nchange: Array.isArray(t.change_points) ? t.change_points.length : num(t.nchange_points),
		last: last ? { commit: text(last.commit), value: num(last.value) } : null,
		pollError: str(t.poll_error),
		detect: normDetect(t.detect),
		// keyset cursor of the older page of commits (null: none)
		next: num(t.next),
		points: arr(t.points).map((p) => ({
			commit: text(p.commit), subject: text(p.subject), author: text(p.author),
			t: num(p.t), value: num(p.value), exp: num(p.experiment_id), state: text(p.state),
		})),
		changePoints: arr(t.change_points).map((c) => ({
			id: num(c.id), index: num(c.index), good: text(c.good), bad: text(c.bad),
			delta: num(c.delta_pct), confirmed: c.confirmed === true,
			// the MDE gate's note (schema 0017); null before the bisect worker looked
			bisectNote: str(c.bisect_note), bisectMde: num(c.bisect_mde_pct),
			bisected: typeof c.bisect_note === 'string' && !/not bisected$/.test(c.bisect_note),
		})),
		bisections: arr(t.bisections).map((b) => ({ id: num(b.id), state: text(b.state), culprit: str(b.culprit),
			outcome: str(b.outcome), parentId: num(b.parent_id) })),
	};
}

// GET /bisections/{id}: its steps in the order they ran and the culprit.
export function normBisection(b) {
	const c = obj(b.culprit);
	return {
		id: num(b.id), state: text(b.state), base: text(b.base), label: text(b.label),
		good: text(b.good), bad: text(b.bad), stepPct: num(b.step_pct),
		trackId: num(b.track_id), failure: str(b.failure_reason),
		reportAlertId: num(b.report_alert_id),
		// the compared metric and whether bad is worse than good by it;
		// how it ended (schema 0017) and a split's two bisections
		metric: str(b.metric), direction: str(b.direction), outcome: str(b.outcome),
		parentId: num(b.parent_id),
		children: arr(b.children).map((k) => ({ id: num(k.id), state: text(k.state), outcome: str(k.outcome),
			good: text(k.good), bad: text(k.bad), culprit: str(k.culprit), stepPct: num(k.step_pct) })),
		steps: arr(b.steps).map((s) => ({
			commit: text(s.commit), subject: text(s.subject), author: text(s.author),
			exp: num(s.experiment_id), state: text(s.state), runs: num(s.runs),
			delta: num(s.delta_pct), lo: num(s.ci_lo), hi: num(s.ci_hi), mde: num(s.mde_pct),
			verdict: s.verdict ? text(s.verdict) : null,
			mark: s.state === 'skipped' ? 'skipped' : s.bad === true ? 'bad' : s.bad === false ? 'good' : '–',
			// its decision: good / bad / unknown / between for a midpoint,
			// reproduced / did_not_reproduce, confirmed / not_confirmed
			call: str(s.call),
		})),
		culprit: c ? {
			commit: text(c.commit), subject: text(c.subject), author: text(c.author), email: str(c.email),
			delta: num(c.delta_pct), lo: num(c.ci_lo), hi: num(c.ci_hi), mde: num(c.mde_pct),
			verdict: str(c.verdict), exp: num(c.experiment_id), messageId: str(c.message_id),
		} : null,
	};
}

// A perf diff of any kind (docs/api.md, perf-diff; daemon/analysis/
// perfdiff_json.c). The answer carries its own web columns: each reads the
// row's "base" key and/or the compared entry's "new" key, so a new kind of
// profile needs nothing here. @variant picks the compared side ("diffs"),
// the first one when not named.
export function perfDiff(res, variant) {
	const r0 = obj(res) || {};
	const columns = arr(r0.columns).map((c) => ({
		label: text(c.label), title: text(c.title), format: text(c.format),
		base: str(c.base) || null, new: str(c.new) || null, hint: str(c.hint) || null,
		mark: str(c.mark) || null, sort: str(c.sort) || null, brief: c.brief === true,
	}));
	const rows = arr(r0.rows).map((r) => {
		let c = r;
		if (variant && Array.isArray(r.diffs)) c = r.diffs.find((d) => d.variant === variant) || r;
		return {
			dso: text(r.dso),
			symbol: text(r.symbol),
			// per column: [base value, new value, hint value]
			vals: columns.map((col) => [col.base ? num(r[col.base]) : null, col.new ? num(c[col.new]) : null,
				col.hint ? num((col.base ? r : c)[col.hint]) : null]),
			noise: c.noise === true ? true : c.noise === false ? false : null,
			unstable: c.unstable === true,
		};
	});
	const tol = obj(r0.tolerance);
	return {
		kind: text(r0.kind),
		event: str(r0.event, r0.source),
		unit: str(r0.unit),
		symbols: num(r0.symbols),
		sampledRuns: num(r0.sampled_runs),
		sides: arr(r0.sides).map((s) => ({
			name: text(s.variant), baseline: s.baseline === true, runs: num(s.runs),
			total: num(s.total), lost: num(s.lost), ios: num(s.ios),
			totalPerIo: obj(s.total_per_io) ? num(s.total_per_io.mean) : null, runsDiffer: s.runs_differ === true,
		})),
		// exact kinds: the change of the totals per IO, per compared side
		totals: Array.isArray(r0.totals) ? r0.totals.map((t) => ({
			variant: text(t.variant), total: num(t.total), totalPct: num(t.total_pct), kernel: num(t.kernel), user: num(t.user),
		})) : null,
		tolerance: tol ? { abs: num(tol.abs_per_io), rel: num(tol.rel) } : null,
		columns, rows,
	};
}

// Worse in the metric's direction (the served metric table).
export const worse = (metric, d) => (d === null || d === undefined ? false : higherIsWorse(metric) ? d > 0 : d < 0);

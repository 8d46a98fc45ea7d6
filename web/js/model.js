// perflab web: turn API answers into the shapes the pages draw. The API is
// documented in docs/api.md; this file is the one place that knows its
// field names, and it tolerates optional fields being absent.
import { arr, num, median } from './util.js';
import { metricDefs, metricOf, metricRank, higherIsWorse } from './metrics.js';

const str = (...vs) => {
	for (const v of vs) if (typeof v === 'string' && v !== '') return v;
	return '';
};
const nameOf = (v) => (v && typeof v === 'object' ? str(v.name, v.title) : typeof v === 'string' ? v : '');

export function normComparison(c) {
	if (!c || typeof c !== 'object') return null;
	const res = c.result && typeof c.result === 'object' ? c.result : {};
	const ci = Array.isArray(c.ci) ? c.ci : Array.isArray(c.ci95) ? c.ci95 : null;
	return {
		variant: str(c.variant, c.variant_name, nameOf(c.variant)),
		variantId: num(c.variant_id),
		control: str(c.control, c.control_name, nameOf(c.control)),
		verdict: str(c.verdict),
		metric: str(c.metric) || 'iops',
		delta: num(c.delta_pct, c.delta),
		ciLow: num(c.ci_low, c.ci_low_pct, ci && ci[0]),
		ciHigh: num(c.ci_high, c.ci_high_pct, ci && ci[1]),
		p: num(c.p_value, c.p, c.mwu_p, res.p),
		mde: num(c.mde_pct, c.mde, res.mde_pct),
		noise: num(c.noise_pct, c.noise),
		runs: num(c.runs, c.n, c.n_variant, res.n_variant),
		baseMean: num(c.control_median, c.base_median, res.control_median),
		newMean: num(c.variant_median, c.new_median, res.variant_median),
		summary: str(c.summary, res.summary),
		mdeFromHost: c.mde_from_host ?? res.mde_from_host,
		// No calibration and identical runs. Older rows carry no flag
		// and mde_pct 0 for that case; with the flag false an MDE of 0
		// means the runs were identical (exact counts, no noise).
		noNoise: (c.no_noise_estimate ?? res.no_noise_estimate ??
			num(c.mde_pct, c.mde, res.mde_pct) === 0) === true,
		reason: str(c.reason, res.reason),
		unit: str(c.unit, res.unit),
		text: str(c.text, res.text),
		raw: c,
	};
}

export function normRun(r) {
	// Per-second ns/IO is not measured; for one thread it is 1e9 / IOPS.
	const samples = arr(r.samples).map((s) => {
		const iops = num(s.iops);
		return {
			t: num(s.t), iops, ns: num(s.ns_per_io) ?? (iops ? 1e9 / iops : null),
			perSubmit: num(s.ios_per_submit), perReap: num(s.ios_per_reap), inflight: num(s.inflight),
		};
	}).filter((s) => s.t !== null);
	const summary = r.summary || {};
	let mean = num(r.mean, summary.mean);
	const warmup = num(r.warmup, summary.warmup) ?? 0;
	if (mean === null && samples.length) {
		const m = samples.filter((s) => s.t > warmup && s.iops !== null);
		if (m.length) mean = m.reduce((a, s) => a + s.iops, 0) / m.length;
	}
	return {
		id: num(r.id, r.run_id),
		jobId: num(r.job_id),
		index: num(r.run_index, r.index) ?? 0,
		variant: str(r.variant, nameOf(r.variant)),
		variantId: num(r.variant_id),
		mean,
		median: num(r.median, summary.median),
		stddev: num(r.stddev, summary.stddev),
		ns: num(r.ns_per_io, summary.ns_per_io),
		warmup,
		samples,
		kernel: str(r.kernel),
		// the boot the run came from (toggle experiments: several runs a boot)
		bootId: str(r.boot_id),
		bootPos: num(r.boot_pos),
		created: r.created_at,
		timings: { build: num(r.build_s, r.timings && r.timings.build_s), boot: num(r.boot_s, r.timings && r.timings.boot_s), run: num(r.run_s, r.timings && r.timings.run_s) },
		// every metric of the served table, by name (null: not reported)
		metrics: Object.fromEntries(metricDefs().map((m) => [m.name, metricOf(r, m)])),
		raw: r,
	};
}

export function normPatch(p) {
	if (!p || typeof p !== 'object') return null;
	return {
		id: num(p.id),
		subject: str(p.subject),
		author: str(p.author),
		messageId: str(p.message_id),
		date: str(p.date),
		sha256: str(p.sha256),
		raw: typeof p.raw === 'string' ? p.raw : null,
		files: arr(p.files).map((f) => ({
			path: str(f.new_path, f.path, f.old_path),
			added: num(f.added), removed: num(f.removed), hunks: num(f.hunks),
		})),
	};
}

export function normJob(j) {
	return {
		id: num(j.id, j.job_id),
		variant: str(j.variant, nameOf(j.variant)),
		variantId: num(j.variant_id),
		runIndex: num(j.run_index),
		seq: num(j.seq),
		state: str(j.state),
		attempt: num(j.attempt),
		phase: str(j.phase),
		message: str(j.message),
		failureReason: str(j.failure_reason, j.reason),
		failureLog: str(j.failure_log, j.log),
		failureLogBytes: num(j.failure_log_bytes),
		runId: num(j.run_id),
		host: str(j.host, nameOf(j.host)),
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

export function normExperiment(e) {
	if (!e || typeof e !== 'object') return null;
	const variants = arr(e.variants).map((v, i) => ({
		id: num(v.id),
		name: str(v.name) || 'variant ' + i,
		isControl: !!(v.is_control ?? i === 0),
		state: str(v.state),
		cmdline: str(v.cmdline),
		setup: str(v.setup),
		settings: v.settings && typeof v.settings === 'object' ? v.settings : {},
		failureReason: str(v.failure_reason),
		failureLog: str(v.failure_log),
		patches: arr(v.patches).map(normPatch).filter(Boolean),
		runs: arr(v.runs).map(normRun),
	}));
	// Runs may also come as a flat list.
	for (const r of arr(e.runs).map(normRun)) {
		const v = variants.find((x) => (r.variantId !== null && x.id === r.variantId) || (r.variant && x.name === r.variant));
		if (v && !v.runs.some((x) => x.id === r.id)) v.runs.push(r);
	}
	for (const v of variants) v.runs.sort((a, b) => a.index - b.index);
	const patches = [];
	for (const p of arr(e.patches).map(normPatch)) if (p) patches.push(p);
	for (const v of variants) for (const p of v.patches) if (!patches.some((x) => x.id === p.id && x.sha256 === p.sha256)) patches.push(p);

	let comparisons = [];
	const cmp = e.comparison ?? e.comparisons ?? e.verdicts;
	if (Array.isArray(cmp)) comparisons = cmp.map(normComparison).filter(Boolean);
	else if (cmp && typeof cmp === 'object') {
		if (Array.isArray(cmp.variants)) comparisons = cmp.variants.map(normComparison).filter(Boolean);
		else if (Array.isArray(cmp.comparisons)) comparisons = cmp.comparisons.map(normComparison).filter(Boolean);
		else if (cmp.verdict) comparisons = [normComparison(cmp)];
	}
	const jobs = arr(e.jobs).map(normJob);
	const lavaJobs = arr(e.lava_jobs).map(normLavaJob);
	const prog = e.progress || {};
	const runsPer = num(e.runs_planned, e.runs);
	let planned = num(prog.jobs_total, prog.planned, prog.total);
	if (planned === null && jobs.length) planned = jobs.length;
	if (planned === null && runsPer !== null) planned = runsPer * Math.max(variants.length, 2);
	let done = num(prog.jobs_done, prog.done);
	if (done === null && jobs.length) done = jobs.filter((j) => j.state === 'done').length;
	if (done === null && variants.length) done = variants.reduce((a, v) => a + v.runs.length, 0);

	const subject = str(e.subject, e.patch_subject, patches[0] && patches[0].subject);
	// Headline: the first compared variant's comparison on the metric
	// first in the table (IOPS).
	comparisons.sort((a, b) => metricRank(a.metric) - metricRank(b.metric));
	const firstVerdict = comparisons.find((c) => c.verdict) || null;
	return {
		id: num(e.id),
		title: str(e.title, subject) || 'experiment ' + e.id,
		subject,
		kind: str(e.kind),
		state: str(e.state),
		submitter: str(e.submitter, nameOf(e.submitter), e.submitter_name),
		host: str(e.host, nameOf(e.host), e.host_name),
		label: str(e.label),
		backend: str(e.backend),
		base: str(nameOf(e.base), e.base_name),
		config: str(e.config),
		bench: e.bench && typeof e.bench === 'object' ? e.bench : null,
		runsPer,
		maxRuns: num(e.max_runs),
		toggle: e.toggle === true,
		runsPerBoot: num(e.runs_per_boot),
		planned, done,
		verdict: str(e.verdict, firstVerdict && firstVerdict.verdict),
		verdictMetric: firstVerdict ? firstVerdict.metric : '',
		delta: num(e.delta_pct, firstVerdict && firstVerdict.delta),
		created: e.created_at, started: e.started_at, finished: e.finished_at,
		failure: str(e.failure_reason),
		variants, patches, jobs, lavaJobs, comparisons,
		failed: num(prog.jobs_failed, prog.failed) || 0,
		lkp: str(e.lkp, e.lkp_text, cmp && cmp.text, cmp && cmp.lkp) || comparisons.map((c) => c.text).filter(Boolean).join('\n'),
		raw: e,
	};
}

export function runMeans(v) {
	return v.runs.map((r) => r.mean).filter((x) => x !== null);
}
export function variantMedian(v) {
	return median(runMeans(v));
}

export function normHost(hst) {
	const f = hst.facts && typeof hst.facts === 'object' ? hst.facts : {};
	const cal = arr(hst.calibration ?? hst.noise, 'items');
	return {
		id: num(hst.id, hst.host_id),
		name: str(hst.name),
		state: str(hst.state, hst.status),
		backend: str(hst.backend),
		labels: arr(hst.labels).map(String),
		lastSeen: hst.last_seen ?? hst.last_heartbeat,
		registered: hst.registered_at,
		currentJob: hst.current_job && typeof hst.current_job === 'object' ? hst.current_job : (num(hst.current_job_id, hst.current_job) !== null ? { id: num(hst.current_job_id, hst.current_job) } : null),
		facts: {
			cpu: str(hst.cpu_model, f.cpu_model), cpus: num(hst.cpus, f.cpus), mem: num(hst.mem_bytes, f.mem_bytes),
			kernel: str(hst.kernel, f.kernel), nvme: str(hst.nvme_model, f.nvme_model), fw: str(hst.nvme_firmware, f.nvme_firmware),
			poll: hst.poll_ok ?? f.poll_ok,
		},
		noise: num(hst.noise_pct, cal[0] && cal[0].noise_pct),
		mde: num(hst.mde_pct, cal[0] && cal[0].mde_pct),
		mdeRuns: num(hst.mde_runs, cal[0] && cal[0].runs),
		calibration: cal,
		ladder: hst.ladder && typeof hst.ladder === 'object' ? hst.ladder : null,
		raw: hst,
	};
}

export function normAlert(a) {
	return {
		id: num(a.id),
		kind: str(a.kind),
		state: str(a.state),
		title: str(a.title),
		metric: str(a.metric),
		delta: num(a.delta_pct, a.delta),
		experimentId: num(a.experiment_id, a.experiment && a.experiment.id),
		seriesId: num(a.series_id, a.series && a.series.id),
		changePointId: num(a.change_point_id),
		host: str(a.host, nameOf(a.host), a.host_name),
		created: a.created_at,
		updated: a.updated_at,
		who: str(a.who, a.updated_by),
		history: arr(a.history),
		raw: a,
	};
}

// Normalise the API answer (see daemon/analysis/perfdiff.c perfdiff_json).
export function perfDiffRows(res, variant) {
	const sides = arr(res && res.sides).map((s) => ({ name: String(s.variant ?? s.name ?? ''), baseline: !!s.baseline, runs: num(s.runs), total: num(s.total), lost: num(s.lost) }));
	const rows = arr(res, 'rows', 'symbols').map((r) => {
		let c = r;
		if (variant && Array.isArray(r.diffs)) c = r.diffs.find((d) => d.variant === variant) || r;
		return {
			dso: String(r.dso ?? ''),
			symbol: String(r.symbol ?? r.sym ?? r.name ?? ''),
			baseline: num(r.baseline, r.baseline_pct),
			baseSamples: num(r.baseline_samples),
			baseSd: num(r.baseline_stddev),
			new: num(c.new, c.new_pct),
			newSamples: num(c.new_samples),
			newSd: num(c.new_stddev),
			delta: num(c.delta, c.delta_pct),
			ratio: num(c.ratio),
			wdiff: num(c.wdiff),
			noise: c.noise === true ? true : c.noise === false ? false : null,
		};
	});
	return { sides, rows, event: res && res.event, symbols: num(res && res.symbols), noiseRule: res && res.noise_rule };
}

// Exact perf diff: instructions per IO per symbol counted by the QEMU TCG
// plugin (daemon/analysis/perfdiff_exact.c).
export function isExact(res) {
	return !!res && res.kind === 'instructions';
}

// Rows for the compared @variant (the first when not named).
export function exactRows(res, variant) {
	return arr(res, 'rows').map((r) => {
		let c = r;
		if (variant && Array.isArray(r.diffs)) c = r.diffs.find((d) => d.variant === variant) || r;
		return {
			dso: String(r.dso ?? ''),
			symbol: String(r.symbol ?? ''),
			base: num(r.base_per_io),
			new: num(c.new_per_io),
			delta: num(c.delta_per_io),
			share: num(c.new_share),
			spread: num(c.spread_per_io),
			unstable: c.unstable === true,
		};
	});
}

// Worse in the metric's direction (the served metric table).
export const worse = (metric, d) => (d === null || d === undefined ? false : higherIsWorse(metric) ? d > 0 : d < 0);

// Experiment: patch, verdict (delta %, 95 % CI, MDE), the LKP table and
// the perflab-bench command line (both rendered by the daemon),
// IOPS over time per run (uPlot), run means per variant (strip plot),
// top of the perf diff, jobs with build/boot/bench logs. Live via SSE.
import { h, clear, fmt, link, stateBadge, variantColor, num, median, si } from '../util.js';
import { api } from '../api.js';
import { normExperiment, normPatch, runMeans, perfDiff } from '../model.js';
import { runsChart, stripPlot } from '../charts.js';
import { errorBox, verdictPanel, totalsSummary, perfDiffTable } from '../widgets.js';
import { failureText } from '../failures.js';

export async function render(ctx) {
	const id = ctx.params[0];
	document.title = 'Experiment ' + id + ' · perflab';
	const root = h('div', { id: 'experiment', dataset: { id } });
	ctx.el.appendChild(root);
	let metric = ctx.query.get('metric') === 'ns' ? 'ns' : 'iops';

	let plots = [];	// uPlot instances of the current drawing
	ctx.cleanup.push(() => { for (const u of plots) u.destroy(); });
	let exp = await load();
	await draw(fetchPerfTop(exp));

	async function load() {
		const raw = await api('/api/v1/experiments/' + encodeURIComponent(id));
		return normExperiment(raw);
	}

	function draw(perfReq) {
		const scroll = window.scrollY;
		for (const u of plots) u.destroy();
		plots = [];
		let pending = null;
		clear(root);
		const e = exp;
		// Element.append prints null as "null": no failed variant, no box.
		root.append(...[header(e), failedVariants(e), verdictPanel(e)].filter(Boolean));
		const charts = h('div', { class: 'grid2' });
		root.appendChild(h('h2', null, 'Runs'));
		const hasNs = e.variants.some((v) => v.runs.some((r) => r.samples.some((s) => s.ns !== null)));
		root.appendChild(h('div', { class: 'toolbar' },
			h('label', null, 'Metric '),
			h('select', {
				id: 'metric',
				onchange: (ev) => { metric = ev.target.value; location.replace(link('/experiments/' + id, { metric: metric === 'ns' ? 'ns' : '' })); },
			}, h('option', { value: 'iops', selected: metric === 'iops' }, 'IOPS per second'),
			h('option', { value: 'ns', selected: metric === 'ns', disabled: !hasNs }, 'ns per IO'))));
		root.appendChild(charts);
		const withRuns = e.variants.filter((v) => v.runs.length);
		const left = h('div', { class: 'panel', id: 'runs-chart' }, h('h3', null, (metric === 'ns' ? 'ns/IO' : 'IOPS') + ' over time, every run'));
		const right = h('div', { class: 'panel', id: 'strip-chart' }, h('h3', null, 'Run means per variant (dot = run, bar = median)'));
		charts.append(left, right);
		if (!withRuns.length) {
			left.appendChild(h('div', { class: 'empty' }, noRunsText(e)));
			right.appendChild(h('div', { class: 'empty' }, 'Run means appear when runs finish.'));
		} else {
			plots.push(runsChart(left, e.variants, { metric }));
			stripPlot(right, e.variants.map((v) => ({ name: v.name, values: metric === 'ns' ? v.runs.map((r) => r.ns).filter((x) => x !== null) : runMeans(v) })), { unit: metric === 'ns' ? 'ns/IO' : 'IOPS' });
		}
		root.append(h('h2', null, 'Comparison table'), lkpBlock(e));
		const pd = h('div', { id: 'perfdiff-top' });
		root.append(h('h2', null, 'Where the cycles went ', h('a', { class: 'small', href: link('/experiments/' + id + '/perf-diff'), id: 'perfdiff-link' }, 'full perf diff and flame graph →')), pd);
		pending = loadPerfTop(pd, e, perfReq);
		root.append(h('h2', null, 'Patch'), patchBlock(e));
		root.append(h('h2', null, 'Jobs and logs'), jobsBlock(e));
		if (e.lavaJobs.length) root.append(h('h2', null, 'LAVA jobs'), lavaBlock(e));
		window.scrollTo(0, scroll);
		return pending;
	}

	// Live progress: refetch on events about this experiment.
	let timer = null;
	ctx.onEvent((ev) => {
		const d = ev.data && typeof ev.data === 'object' ? ev.data : {};
		const eid = num(d.experiment_id, d.experiment && d.experiment.id, ev.event === 'experiment' ? d.id : null);
		if (eid !== null && String(eid) !== String(id)) return;
		if (eid === null && !/experiment|job|run/.test(ev.event)) return;
		clearTimeout(timer);
		timer = setTimeout(async () => {
			try {
				const n = await load();
				if (ctx.stale) return;
				exp = n;
				draw(fetchPerfTop(n));
			} catch (err) { console.warn('refresh failed', err); }
		}, 250);
	});
	ctx.cleanup.push(() => clearTimeout(timer));
}

function noRunsText(e) {
	if (e.state === 'failed') return 'The experiment failed before any run finished; see the jobs below for the reason and logs.';
	if (e.state === 'cancelled') return 'The experiment was cancelled before any run finished.';
	return 'No run has finished yet. It is ' + (e.state || 'queued') + '; this page updates by itself when results arrive.';
}

function header(e) {
	const pct = e.planned ? Math.min(100, Math.round((100 * (e.done || 0)) / e.planned)) : 0;
	return h('div', null,
		h('div', { class: 'toolbar' },
			h('h1', { class: 'wrap-anywhere' }, '#' + e.id + ' ', e.title),
			stateBadge(e.state),
			e.state === 'queued' || e.state === 'running' ? cancelButton(e) : null),
		h('dl', { class: 'kv' },
			h('dt', null, 'Progress'), h('dd', { id: 'progress' },
				h('span', { class: 'progress' }, h('span', { style: { width: pct + '%' } })),
				h('span', { id: 'progress-text' }, (e.done ?? 0) + ' / ' + (e.planned ?? '?') + ' runs done'),
				e.maxRuns && e.runsPer && e.maxRuns > e.runsPer ? h('span', { class: 'muted' }, ' (up to ' + e.maxRuns + ' runs per variant if inconclusive)') : null),
			h('dt', null, 'Submitter'), h('dd', null, e.submitter || '–'),
			h('dt', null, 'Host'), h('dd', null, e.host || (e.label ? 'not yet claimed (label ' + e.label + ')' : 'not yet claimed')),
			h('dt', null, 'Base'), h('dd', null, [e.base, e.config && 'config ' + e.config, e.backend && 'backend ' + e.backend].filter(Boolean).join(', ') || '–'),
			h('dt', null, 'Bench'), h('dd', { class: 'mono small', id: 'bench-command' }, e.benchCommand || '–'),
			e.toggle ? [h('dt', null, 'Design'), h('dd', { id: 'toggle-design' },
				'toggle: one kernel booted once, ' + (e.runsPerBoot ?? '?') + ' rounds per boot, variants alternate by runtime settings (',
				e.variants.map((v, i) => h('span', { class: 'mono small' }, (i ? '; ' : '') + v.name + ': ' +
					Object.entries(v.settings).map(([p, x]) => p + ' = ' + x).join(', '))), '); runs of one boot are paired')] : null,
			h('dt', null, 'Variants'), h('dd', null, e.variants.map((v, i) => h('span', { class: 'nowrap', style: { marginRight: '14px' } },
				h('span', { class: 'swatch', style: { background: variantColor(i) } }), v.name, v.isControl ? ' (control)' : '',
				v.state === 'failed' ? h('span', { class: 'badge badge-bad', title: v.failureReason }, ' failed: ' + (v.failureReason || '')) : null))),
			h('dt', null, 'Times'), h('dd', null, 'submitted ' + fmt.time(e.created),
				e.started ? ', started ' + fmt.time(e.started) : '', e.finished ? ', finished ' + fmt.time(e.finished) : ''),
			e.failure ? [h('dt', null, 'Failure'), h('dd', { class: 'pos' }, e.failure)] : null));
}

function cancelButton(e) {
	const b = h('button', { type: 'button', id: 'cancel', title: 'stop handing out this experiment’s jobs (submitter or admin)', onclick: async () => {
		if (!confirm('Cancel experiment #' + e.id + '? Unfinished runs are dropped.')) return;
		b.disabled = true;
		try {
			await api('/api/v1/experiments/' + e.id + '/cancel', { method: 'POST' });
			window.dispatchEvent(new HashChangeEvent('hashchange'));
		} catch (err) {
			b.disabled = false;
			b.replaceWith(errorBox(err));
		}
	} }, 'Cancel experiment');
	return b;
}

// A variant that failed for good (a reason that is not retried, see
// failures.js): show why, what to do, and the tool's output.
function failedVariants(e) {
	const failed = e.variants.filter((v) => v.state === 'failed');
	if (!failed.length) return null;
	return h('div', { class: 'error', id: 'failed-variants' }, failed.map((v) => h('div', null,
		h('strong', null, 'Variant ' + v.name + ' failed: ' + (v.failureReason || 'no reason given')),
		failureText(v.failureReason) ? h('div', { class: 'failure-meaning' }, failureText(v.failureReason)) : null,
		v.failureLog ? h('pre', { class: 'log' }, v.failureLog) : null)));
}

// The LKP comparison table of the runs so far and, once analysed, each
// verdict's own text: both rendered by the daemon.
function lkpBlock(e) {
	const verdicts = e.comparisons.map((c) => c.text).filter(Boolean);
	if (!e.lkp && !verdicts.length)
		return h('div', { class: 'empty', id: 'lkp' }, 'The table appears when runs have finished on the control.');
	return h('pre', { class: 'lkp', id: 'lkp' }, [e.lkp, ...verdicts].filter(Boolean).join('\n'));
}

// Start the perf-diff request as soon as the experiment is known (it runs
// while the charts draw); null when there is nothing to diff yet.
function fetchPerfTop(e) {
	const ctl = e.variants.find((v) => v.isControl) || e.variants[0];
	if (!ctl || !ctl.runs.length || !e.variants.some((v) => v !== ctl && v.runs.length)) return null;
	const p = api('/api/v1/experiments/' + e.id + '/perf-diff', { query: { limit: 10 } });
	p.catch(() => {});	// handled in loadPerfTop
	return p;
}

async function loadPerfTop(el, e, req) {
	if (!req) {
		el.appendChild(h('div', { class: 'empty' }, 'The perf diff appears when runs with profiles have finished on both sides.'));
		return;
	}
	try {
		const res = await req;
		const pd = perfDiff(res);
		if (!pd.rows.length) {
			el.appendChild(h('div', { class: 'empty' }, 'No profile samples were recorded for this experiment (runs without -P).'));
			return;
		}
		el.append(...[totalsSummary(pd), perfDiffTable(pd, { brief: true, limit: 10,
			symbolLink: (r) => link('/experiments/' + e.id + '/perf-diff', { q: r.symbol }) })].filter(Boolean));
	} catch (err) {
		if (err.status === 404) el.appendChild(h('div', { class: 'empty' }, 'No perf diff for this experiment yet (' + err.message + ').'));
		else el.appendChild(errorBox(err));
	}
}

function patchBlock(e) {
	if (!e.patches.length) return h('div', { class: 'empty' }, e.kind === 'patch' ? 'The patch text is not available.' : 'This experiment has no patches (its variants differ by command line or setup).');
	return h('div', { id: 'patches' }, e.patches.map((p) => h('div', { class: 'panel' },
		h('dl', { class: 'kv' },
			h('dt', null, 'Subject'), h('dd', { class: 'patch-subject' }, p.subject || '–'),
			h('dt', null, 'Author'), h('dd', null, p.author || '–'),
			h('dt', null, 'Date'), h('dd', null, p.date || '–'),
			h('dt', null, 'Message-ID'), h('dd', { class: 'mono' }, p.messageId || '–'),
			h('dt', null, 'sha256'), h('dd', { class: 'mono small' }, p.sha256 || '–'),
			p.files.length ? [h('dt', null, 'Files'), h('dd', null, p.files.map((f) => h('div', { class: 'mono small' }, f.path,
				h('span', { class: 'add' }, ' +' + (f.added ?? 0)), h('span', { class: 'del' }, ' −' + (f.removed ?? 0)))))] : null),
		p.raw !== null ? h('details', { open: e.patches.length <= 3 }, h('summary', null, 'Raw patch (' + fmt.count(p.raw.length, 'bytes') + ')'), patchPre(p.raw))
			: p.id !== null ? lazyPatch(p, e.patches.length <= 3) : null)));
}

const patchCache = new Map();
function lazyPatch(p, open) {
	const d = h('details', { open }, h('summary', null, 'Raw patch'));
	const load = async () => {
		if (!d.open || d.dataset.loaded) return;
		d.dataset.loaded = '1';
		try {
			if (!patchCache.has(p.id)) patchCache.set(p.id, api('/api/v1/patches/' + p.id));
			const r = await patchCache.get(p.id);
			const raw = (normPatch(r) || {}).raw || '';
			d.querySelector('summary').textContent = 'Raw patch (' + fmt.count(raw.length, 'bytes') + ')';
			d.appendChild(patchPre(raw));
		} catch (err) {
			patchCache.delete(p.id);
			d.appendChild(errorBox(err));
		}
	};
	d.addEventListener('toggle', load);
	if (open) load();
	return d;
}

// Diff text with + / - / @@ lines coloured; text only, never HTML.
function patchPre(raw) {
	const pre = h('pre', { class: 'patch' });
	const lines = raw.split('\n');
	let inDiff = false;
	for (const l of lines) {
		if (l.startsWith('diff --git')) inDiff = true;
		if (l === '--' || l === '-- ') inDiff = false;	// mail signature
		let cls = null;
		if (inDiff) {
			if (l.startsWith('@@')) cls = 'hunk';
			else if (l.startsWith('+') && !l.startsWith('+++')) cls = 'add';
			else if (l.startsWith('-') && !l.startsWith('---')) cls = 'del';
		}
		pre.appendChild(cls ? h('span', { class: cls }, l + '\n') : document.createTextNode(l + '\n'));
	}
	return pre;
}

function jobsBlock(e) {
	const rows = [];
	const jobs = e.jobs.length ? e.jobs : [];
	if (!jobs.length) {
		// No job list in the answer: show runs with their logs.
		for (const v of e.variants) for (const r of v.runs)
			rows.push({ exp: e.id, variant: v.name, index: r.index, state: 'done', runId: r.id, run: r });
	} else {
		for (const j of jobs) {
			const v = e.variants.find((x) => x.id === j.variantId || x.name === j.variant);
			const run = v && v.runs.find((r) => r.jobId === j.id);
			rows.push({ exp: e.id, variant: v ? v.name : j.variant, index: j.runIndex, seq: j.seq, state: j.state, attempt: j.attempt, phase: j.phase, message: j.message, failure: j.failureReason, failureLog: j.failureLog, failureLogBytes: j.failureLogBytes, jobId: j.id, runId: run ? run.id : null, run });
		}
	}
	if (!rows.length) return h('div', { class: 'empty' }, 'No jobs yet.');
	const logBox = h('div', { id: 'log-view' });
	if (openLog && openLog.exp === e.id) {
		const r = rows.find((x) => x.runId === openLog.runId);
		if (r) showLog(logBox, r.runId, openLog.kind, r);
	}
	const tbl = h('table', { id: 'jobs-table', class: 'small' },
		h('thead', null, h('tr', null, h('th', { class: 'num' }, 'seq'), h('th', null, 'Variant'), h('th', { class: 'num' }, 'Run'),
			h('th', { title: 'the boot the run came from (its kernel boot id) and its position in that boot' }, 'Boot'),
			h('th', null, 'State'), h('th', null, 'Phase / message'), h('th', { class: 'num' }, 'Run mean'), h('th', { class: 'num' }, 'Build / boot / run'), h('th', null, 'Logs'))),
		h('tbody', null, rows.map((r) => h('tr', null,
			h('td', { class: 'num' }, r.seq ?? ''),
			h('td', null, r.variant),
			h('td', { class: 'num' }, r.index ?? ''),
			h('td', { class: 'mono small boot', title: r.run && r.run.bootId ? r.run.bootId : '' },
				r.run && r.run.bootId ? r.run.bootId.slice(0, 8) + (r.run.bootPos !== null ? ' #' + r.run.bootPos : '') : ''),
			h('td', null, stateBadge(r.state), r.attempt > 1 ? h('span', { class: 'muted' }, ' attempt ' + r.attempt) : null),
			h('td', { class: 'wrap-anywhere' }, [r.phase, r.message].filter(Boolean).join(': '), r.failure ? h('div', { class: 'pos' }, 'failed: ' + r.failure) : null),
			h('td', { class: 'num' }, r.run ? fmt.iops(r.run.mean) : ''),
			h('td', { class: 'num' }, r.run ? [r.run.timings.build, r.run.timings.boot, r.run.timings.run].map((x) => (x === null ? '–' : fmt.secs(x))).join(' / ') : ''),
			h('td', { class: 'nowrap' },
				r.runId !== null && r.runId !== undefined ? ['build', 'boot', 'bench'].map((k) => h('button', {
					class: 'link log-link', type: 'button', style: { marginRight: '8px' },
					onclick: () => showLog(logBox, r.runId, k, r),
				}, k)) : null,
				r.failureLog ? h('button', { class: 'link failure-log', type: 'button', onclick: () => showFailure(logBox, r) }, 'failure log') : null)))));
	return h('div', null, tbl, logBox);
}

// Jobs that a LAVA lab ran: one LAVA job per attempt, linked to LAVA.
function lavaBlock(e) {
	const seqOf = new Map(e.jobs.map((j) => [j.id, j]));
	return h('table', { id: 'lava-jobs', class: 'small' },
		h('thead', null, h('tr', null, h('th', { class: 'num' }, 'seq'), h('th', null, 'Variant'), h('th', { class: 'num' }, 'Attempt'),
			h('th', null, 'LAVA job'), h('th', null, 'Lab'), h('th', null, 'LAVA health'), h('th', null, 'Outcome'),
			h('th', { class: 'num', title: 'notify callbacks perflabd received for it' }, 'Callbacks'), h('th', null, 'Message'))),
		h('tbody', null, e.lavaJobs.map((l) => {
			const j = seqOf.get(l.jobId) || {};
			return h('tr', { class: 'lava-job' },
				h('td', { class: 'num' }, j.seq ?? ''),
				h('td', null, j.variant || ''),
				h('td', { class: 'num' }, l.attempt ?? ''),
				h('td', { class: 'mono lava-id' }, l.lavaId !== null ? (l.url ? h('a', { href: l.url, rel: 'noopener' }, '#' + l.lavaId) : '#' + l.lavaId) : '–'),
				h('td', null, l.lab),
				h('td', null, [l.lavaState, l.health].filter(Boolean).join(' / ')),
				h('td', null, l.outcome || l.state),
				h('td', { class: 'num' }, String(l.callbacks)),
				h('td', { class: 'wrap-anywhere' }, l.message));
		})));
}

// The bench's console output, rebuilt from the stored per-second samples in
// t/io_uring's layout.
function benchLog(r) {
	const lines = [];
	if (r.benchCommand) lines.push(r.benchCommand);
	if (r.kernel) lines.push('kernel ' + r.kernel);
	for (const s of r.samples) {
		lines.push('IOPS=' + s.iops + ', IOS/call=' + (s.perSubmit ?? '?') + '/' + (s.perReap ?? '?') + ', inflight=(' + (s.inflight ?? '?') + ')' + (s.t <= r.warmup ? '   [warm-up]' : ''));
	}
	lines.push('mean ' + fmt.iopsFull(r.mean) + ' over ' + (r.samples.length - r.warmup) + ' s after ' + r.warmup + ' s warm-up; ' + fmt.ns(r.ns));
	return lines.join('\n');
}

// The experiment JSON holds the last 64 KiB of a failure log; the whole
// log comes from /api/v1/jobs/{id}/log.
async function showFailure(box, r) {
	const title = 'Failure log, ' + r.variant + ' run ' + r.index;
	let text = r.failureLog;
	let note = null;
	if (r.failureLogBytes !== null && r.failureLogBytes > text.length && r.jobId !== null) {
		try {
			text = await api('/api/v1/jobs/' + r.jobId + '/log', { raw: true });
		} catch (err) {
			note = 'Only the last ' + fmt.count(r.failureLog.length, 'bytes') + ' of ' + fmt.count(r.failureLogBytes, 'bytes') + ' are shown (' + err.message + ').';
		}
	}
	clear(box).append(h('h3', null, title + ' (' + fmt.count(text.length, 'bytes') + ')'), note ? h('p', { class: 'muted' }, note) : '', h('pre', { class: 'log', id: 'failure-log' }, text));
}

let openLog = null;	// the log on view survives live redraws
async function showLog(box, runId, kind, row) {
	openLog = { exp: row.exp, runId, kind };
	clear(box).append(h('h3', null, kind + ' log, ' + row.variant + ' run ' + row.index), h('p', { class: 'muted' }, 'Loading…'));
	if (kind === 'bench') {
		clear(box).append(h('h3', null, 'bench output, ' + row.variant + ' run ' + row.index + ' (rebuilt from the stored samples)'),
			row.run ? h('pre', { class: 'log' }, benchLog(row.run)) : h('div', { class: 'empty' }, 'No bench output: the run has no stored samples.'));
		return;
	}
	try {
		const text = await api('/api/v1/runs/' + runId + '/logs/' + kind, { raw: true });
		clear(box).append(h('h3', null, kind + ' log, ' + row.variant + ' run ' + row.index + ' (' + fmt.count(text.length, 'bytes') + ')'),
			text ? h('pre', { class: 'log' }, text) : h('div', { class: 'empty' }, 'This log is empty.'));
	} catch (err) {
		clear(box).append(h('h3', null, kind + ' log'), errorBox(err));
	}
}

export { median, si };

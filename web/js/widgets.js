// perflab web: widgets more than one page draws (error box, verdict panel,
// exact instruction table). Pages import them from here, never from each
// other or from app.js, so the router sits on top and the pages below it.
import { h, fmt, num, arr, verdictBadge } from './util.js';
import { askKey, ApiError } from './api.js';
import { exactRows } from './model.js';
import { metricLabel, fmtMetric } from './metrics.js';

// A key entered from an error box: the router draws the page again.
const rerender = () => window.dispatchEvent(new HashChangeEvent('hashchange'));

export function errorBox(e) {
	const status = e instanceof ApiError ? e.status : 0;
	let hint;
	if (status === 401) hint = ['Enter a valid API key with the ', h('button', { class: 'link', onclick: () => askKey().then((ok) => ok && rerender()) }, 'API key'), ' button.'];
	else if (status === 403) hint = 'Your key’s role may not do this; ask an admin for a key with the right role (submit or admin).';
	else if (status === 404) hint = ['It may have been removed or the link is wrong. Go back to the ', h('a', { href: '#/experiments' }, 'queue'), '.'];
	else if (status === 0) hint = 'Check that perflabd is running and reachable, then reload the page.';
	else if (status >= 500) hint = 'The daemon failed; its log says why. Reload to try again.';
	else hint = 'Reload to try again.';
	return h('div', { class: 'error', role: 'alert' },
		h('strong', null, 'Could not load this page: '), String(e && e.message || e),
		status ? h('span', { class: 'muted' }, ' (HTTP ' + status + ')') : null,
		h('div', null, hint));
}

export function verdictPanel(e) {
	const panel = h('div', { class: 'panel', id: 'verdict' });
	const cmps = e.comparisons.filter((c) => c.verdict);
	if (!cmps.length) {
		panel.append(h('h3', null, 'Verdict'), h('p', { class: 'muted' },
			e.state === 'done' || e.state === 'failed'
				? 'No comparison was computed (a variant needs finished runs on both sides).'
				: 'The verdict appears when all planned runs are done (' + (e.done ?? 0) + ' of ' + (e.planned ?? '?') + ' so far).'));
		return panel;
	}
	for (const c of cmps) {
		const name = c.variant || 'treatment';
		panel.append(h('h3', null, name + ' vs ' + (c.control || 'control') + ' · ' + metricName(c.metric)),
			h('div', { class: 'verdict' },
				h('div', null, h('span', { class: 'lbl' }, 'verdict'), verdictBadge(c.verdict)),
				h('div', null, h('span', { class: 'lbl' }, 'Δ ' + metricName(c.metric) + (c.unit === 'second' ? ' (median of seconds)' : ' (median of run means)')), h('span', { class: 'big ' + deltaClass(c) }, fmt.spct(c.delta))),
				h('div', null, h('span', { class: 'lbl' }, '95 % CI of Δ (bootstrap over ' + (c.unit === 'second' ? 'seconds' : 'runs') + ')'), h('span', { class: 'big' }, '[' + fmt.spct(c.ciLow) + ', ' + fmt.spct(c.ciHigh) + ']')),
				h('div', null, h('span', { class: 'lbl' }, 'MDE (minimum detectable effect)'), mdeValue(c),
					c.runs !== null ? h('span', { class: 'muted' }, ' at ' + c.runs + (c.unit === 'second' ? ' seconds' : ' runs')) : null),
				h('div', null, h('span', { class: 'lbl' }, 'p-value (Mann-Whitney U)'), h('span', { class: 'big' }, c.p !== null ? c.p.toPrecision(2) : '–')),
				c.baseMean !== null && c.newMean !== null ? h('div', null, h('span', { class: 'lbl' }, (c.unit === 'second' ? 'median, ' : 'median of run means, ') + (c.control || 'control') + ' → ' + name),
					h('span', { class: 'big' }, metricVal(c.metric, c.baseMean) + ' → ' + metricVal(c.metric, c.newMean))) : null),
			h('p', { class: 'muted small' }, sentence(c), c.reason ? ' (' + c.reason + ')' : '',
				c.mdeFromHost === false ? ' MDE from this comparison’s own noise: the host has no A/A calibration yet.' : ''));
	}
	return panel;
}

// Never a bare zero: "±0.00 %" would claim a perfect resolution. Without a
// noise estimate the verdict says so; an MDE of exactly 0 (identical runs
// with the flag unset, e.g. exact counts) is a dash that says why; tiny
// MDEs keep two significant digits.
function mdeValue(c) {
	if (c.noNoise)
		return h('span', { class: 'big mde', title: c.reason || 'identical runs and no host calibration' }, 'no noise estimate');
	if (c.mde === 0)
		return h('span', { class: 'big mde', title: 'exact: no run-to-run noise (the runs were identical)' }, '—');
	return h('span', { class: 'big mde' }, c.mde !== null ? '±' + fmt.pctSig(c.mde) : '–');
}

const metricVal = fmtMetric;
const metricName = metricLabel;
function deltaClass(c) {
	if (c.verdict === 'regression') return 'pos';
	if (c.verdict === 'improvement') return 'neg';
	return '';
}
function sentence(c) {
	const d = c.delta !== null ? fmt.spct(c.delta) : 'an unknown change';
	const mde = c.noNoise ? ' No noise estimate: the runs were identical and the host has no A/A calibration, so no resolution can be claimed.'
		: c.mde === 0 ? ' Exact: the runs were identical, so there is no run-to-run noise to state an MDE against.'
			: c.mde !== null ? ' The smallest change this host can resolve at this run count is ' + fmt.pctSig(c.mde) + '.' : '';
	switch (c.verdict) {
	case 'no change': return 'No change: ' + d + ' is within run-to-run noise.' + mde;
	case 'regression': return 'Regression: ' + d + ' in ' + metricName(c.metric) + ', beyond noise.' + mde;
	case 'improvement': return 'Improvement: ' + d + ' in ' + metricName(c.metric) + ', beyond noise.' + mde;
	case 'inconclusive': return 'Inconclusive: ' + d + ' is near the noise level; more runs may settle it.' + mde;
	default: return '';
	}
}

// Exact perf diff: no noise column, runs of one kernel should agree and a
// symbol whose runs disagree is marked.
const f3 = (v) => (v === null ? '–' : v.toFixed(3));
const s3 = (v) => (v === null ? '–' : (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v).toFixed(3));

// "instr/IO 2157.000 → 2167.200 (+10.200, +0.473 %); kernel +10.200, user ±0.000"
export function exactSummary(res, variant) {
	const sides = arr(res, 'sides');
	const base = sides.find((s) => s.baseline) || sides[0];
	const side = sides.find((s) => !s.baseline && (!variant || s.variant === variant));
	const tot = arr(res, 'totals').find((t) => side && t.variant === side.variant);
	if (!base || !side || !tot) return h('p', { class: 'muted', id: 'exact-totals' }, 'Exact instruction counts.');
	const per = (s) => num(s.total_per_io && s.total_per_io.mean);
	const runsDiffer = sides.filter((s) => s.runs_differ === true).map((s) => s.variant);
	return h('p', { class: 'muted', id: 'exact-totals' },
		'Executed instructions per IO, counted exactly (', String(res.source || 'qemu-tcg-plugin'), '): ',
		h('b', null, base.variant), ' ', f3(per(base)), ' → ', h('b', null, side.variant), ' ', f3(per(side)),
		' (', h('span', { class: num(tot.total) > 0 ? 'pos' : num(tot.total) < 0 ? 'neg' : '' }, s3(num(tot.total))), ', ', fmt.spct(num(tot.total_pct), 3),
		'); kernel ', s3(num(tot.kernel)), ', user ', s3(num(tot.user)), '. ',
		fmt.count(num(base.runs), 'runs'), ' / ', fmt.count(num(side.runs), 'runs'), '.',
		runsDiffer.length ? h('span', { class: 'pos', id: 'exact-runs-differ' }, ' Runs of ' + runsDiffer.join(', ') + ' disagree on the total.') : null);
}

const COLS = [
	['Base/IO', 'instructions per IO of the control (mean over its runs)'],
	['New/IO', 'instructions per IO of the variant'],
	['Delta/IO', 'New/IO − Base/IO'],
	['Share', 'share of the variant’s instructions, %'],
	['Spread', 'max − min of the per-run instructions per IO (larger of the two variants)'],
];

// The table; @limit rows (0: all); @symbolLink(row) -> href or null.
export function exactTable(res, { variant = '', limit = 0, symbolLink = null } = {}) {
	let rows = exactRows(res, variant);
	if (limit) rows = rows.slice(0, limit);
	const tol = res.tolerance || {};
	const mark = () => h('span', { class: 'noise-mark unstable-mark', title: 'the runs of one kernel differ by more than ' + num(tol.abs_per_io) + ' instr/IO + ' + (num(tol.rel) * 100) + ' % (exact counts should repeat)' }, 'runs differ');
	return h('table', { class: 'small', id: 'exact-table' },
		h('thead', null, h('tr', null, COLS.map(([l, t]) => h('th', { class: 'num', title: t }, l)), h('th', null, 'Shared Object'), h('th', null, 'Symbol'))),
		h('tbody', null, rows.map((r) => h('tr', { class: r.unstable ? 'unstable' : '' },
			h('td', { class: 'num' }, f3(r.base)),
			h('td', { class: 'num' }, f3(r.new)),
			h('td', { class: 'num ' + (r.delta > 0 ? 'pos' : r.delta < 0 ? 'neg' : '') }, s3(r.delta)),
			h('td', { class: 'num' }, r.share === null ? '–' : r.share.toFixed(2) + ' %'),
			h('td', { class: 'num' }, r.spread === null ? '' : f3(r.spread), r.unstable ? mark() : null),
			h('td', { class: 'mono' }, r.dso),
			h('td', { class: 'mono wrap-anywhere' }, symbolLink ? h('a', { href: symbolLink(r) }, r.symbol) : r.symbol)))));
}

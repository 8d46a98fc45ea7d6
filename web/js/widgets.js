// perflab web: widgets more than one page draws (error box, verdict panel,
// the perf diff table). Pages import them from here, never from each
// other or from app.js, so the router sits on top and the pages below it.
import { h, fmt, num, verdictBadge } from './util.js';
import { askKey, ApiError } from './api.js';
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

// ---- perf diff ------------------------------------------------------------

const sign = (v) => (v > 0 ? '+' : v < 0 ? '−' : '±');
const f3 = (v) => (v === null ? '–' : v.toFixed(3));
const s3 = (v) => (v === null ? '–' : sign(v) + Math.abs(v).toFixed(3));

// The formats a perf diff's columns name (daemon/analysis/perfdiff_*.c);
// blank without a value. Signed ones colour the cell by the sign.
const FORMATS = {
	pct: (v) => v.toFixed(2) + ' %',
	spct: (v) => sign(v) + Math.abs(v).toFixed(2) + ' %',
	ratio: (v) => v.toFixed(3) + ' ×',
	int: (v) => v.toLocaleString('en-US'),
	count: (v) => String(v),
	f3: (v) => v.toFixed(3),
	s3: (v) => sign(v) + Math.abs(v).toFixed(3),
};
const SIGNED = new Set(['spct', 's3']);
const show = (format, v) => (v === null ? '' : (FORMATS[format] || String)(v));

// Marks a column can carry: noise (sampled kinds: within run-to-run noise)
// and unstable (exact kinds: the runs of one kernel disagree).
function markOf(pd, name) {
	if (name === 'noise')
		return { label: 'noise', cls: 'noise-mark', title: 'within run-to-run noise: not a discovery of Welch’s t test with Benjamini-Hochberg at 5 %' };
	const t = pd.tolerance || {};
	return { label: 'runs differ', cls: 'noise-mark unstable-mark', title: 'the runs of one kernel differ by more than ' + t.abs + ' per IO + ' + (num(t.rel) * 100) + ' % (exact counts should repeat)' };
}

// "instr/IO 2157.000 → 2167.200 (+10.200, +0.473 %); kernel +10.200, user ±0.000"
// for a diff with totals (@pd from model.js perfDiff; exact counts); null
// without.
export function totalsSummary(pd, variant) {
	if (!pd.totals) return null;
	const base = pd.sides.find((s) => s.baseline) || pd.sides[0];
	const side = pd.sides.find((s) => !s.baseline && (!variant || s.name === variant));
	const tot = pd.totals.find((t) => side && t.variant === side.name);
	if (!base || !side || !tot) return h('p', { class: 'muted', id: 'exact-totals' }, 'Exact instruction counts.');
	const runsDiffer = pd.sides.filter((s) => s.runsDiffer).map((s) => s.name);
	return h('p', { class: 'muted', id: 'exact-totals' },
		'Executed instructions per IO, counted exactly (', pd.event || 'qemu-tcg-plugin', '): ',
		h('b', null, base.name), ' ', f3(base.totalPerIo), ' → ', h('b', null, side.name), ' ', f3(side.totalPerIo),
		' (', h('span', { class: tot.total > 0 ? 'pos' : tot.total < 0 ? 'neg' : '' }, s3(tot.total)), ', ', fmt.spct(tot.totalPct, 3),
		'); kernel ', s3(tot.kernel), ', user ', s3(tot.user), '. ',
		fmt.count(base.runs, 'runs'), ' / ', fmt.count(side.runs, 'runs'), '.',
		runsDiffer.length ? h('span', { class: 'pos', id: 'exact-runs-differ' }, ' Runs of ' + runsDiffer.join(', ') + ' disagree on the total.') : null);
}

// Sort value of row @r for key @key: a column's sort name (both sides
// shown: their sum), "NAME-abs" for its absolute value, dso or symbol.
export function perfDiffSortValue(pd, r, key) {
	if (key === 'dso' || key === 'symbol') return r[key];
	const abs = key.endsWith('-abs');
	const i = pd.columns.findIndex((c) => c.sort === (abs ? key.slice(0, -4) : key));
	if (i < 0) return -Infinity;
	const [b, n] = r.vals[i];
	const c = pd.columns[i];
	const v = c.base && c.new ? (b || 0) + (n || 0) : c.new ? n : b;
	return v === null ? -Infinity : abs ? Math.abs(v) : v;
}

function cell(pd, r, c, i) {
	const [b, n, hint] = r.vals[i];
	const v = c.new ? n : b;
	const td = h('td', { class: 'num', title: hint !== null ? 'run-to-run sd ' + show(c.format, hint) : null },
		c.base && c.new ? show(c.format, b || 0) + ' → ' + show(c.format, n || 0) : show(c.format, v));
	const marked = c.mark && r[c.mark] === true;
	if (marked && c.mark === 'noise') td.classList.add('noise');
	else if (SIGNED.has(c.format) && v) td.classList.add(v > 0 ? 'pos' : 'neg');
	if (marked) {
		const m = markOf(pd, c.mark);
		td.appendChild(h('span', { class: m.cls, title: m.title }, m.label));
	}
	return td;
}

// The perf diff table of any kind (@pd from model.js perfDiff): the
// kind's columns (only the brief ones with @brief), Shared Object, Symbol;
// @limit rows (0: all); @symbolLink(row) -> href or null; with @onSort,
// sortable headers (@sort, @dir mark the sorted one).
export function perfDiffTable(pd, { rows = pd.rows, brief = false, limit = 0, symbolLink = null, sort = '', dir = 'desc', onSort = null, fixed = false } = {}) {
	const cols = pd.columns.map((c, i) => [c, i]).filter(([c]) => !brief || c.brief);
	const th = (label, key, title, numeric) => {
		const on = key && (key === sort || sort === key + '-abs');
		const cls = [numeric ? 'num' : '', onSort && key ? 'sortable' : '', on && dir === 'asc' ? 'sorted-asc' : '', on && dir === 'desc' ? 'sorted-desc' : ''].filter(Boolean).join(' ');
		return h('th', onSort && key ? {
			class: cls, title, dataset: { key }, tabindex: 0, role: 'button',
			onkeydown: (ev) => { if (ev.key === 'Enter' || ev.key === ' ') { ev.preventDefault(); ev.currentTarget.click(); } },
			onclick: () => onSort(key, numeric),
		} : { class: cls || null, title }, label);
	};
	const shown = limit ? rows.slice(0, limit) : rows;
	const body = document.createDocumentFragment();
	for (const r of shown)
		body.appendChild(h('tr', { class: r.unstable ? 'unstable' : null },
			cols.map(([c, i]) => cell(pd, r, c, i)),
			h('td', { class: 'mono' }, r.dso),
			h('td', { class: 'mono wrap-anywhere' }, symbolLink ? h('a', { href: symbolLink(r) }, r.symbol) : r.symbol)));
	// fixed layout: 7 % a number, more for one with a mark or two numbers
	const width = (c) => 7 + (c.mark ? 3 : 0) + (c.base && c.new ? 4 : 0) + '%';
	return h('table', { id: 'perfdiff-table', class: 'small' + (fixed ? ' fixed' : ''), dataset: { kind: pd.kind } },
		fixed ? h('colgroup', null, cols.map(([c]) => h('col', { style: { width: width(c) } })),
			h('col', { style: { width: '14%' } }), h('col', null)) : null,
		h('thead', null, h('tr', null, cols.map(([c]) => th(c.label, c.sort, c.title, true)),
			th('Shared Object', 'dso', null, false), th('Symbol', 'symbol', null, false))),
		h('tbody', null, body));
}

// Exact perf diff (issue 16): instructions per IO per symbol counted by
// the QEMU TCG plugin (daemon/analysis/perfdiff_exact.c). No noise column: runs of
// one kernel should agree, and a symbol whose runs disagree is marked.
import { h, fmt, num, arr } from '../util.js';

export function isExact(res) {
	return !!res && res.kind === 'instructions';
}

const f3 = (v) => (v === null ? '–' : v.toFixed(3));
const s3 = (v) => (v === null ? '–' : (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v).toFixed(3));

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

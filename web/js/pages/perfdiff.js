// perf diff of an experiment, any kind of profile: the sortable table of
// the kind's columns (web/js/widgets.js perfDiffTable), filter by symbol /
// dso, noise marks, the text form, and for sampled profiles the
// differential flame graph. URL: #/experiments/ID/perf-diff?variant=&kind=&q=&dso=&sort=&dir=&noise=
import { h, clear, fmt, link, setQuery } from '../util.js';
import { api } from '../api.js';
import { perfDiff } from '../model.js';
import { errorBox, totalsSummary, perfDiffTable, perfDiffSortValue } from '../widgets.js';

const PAGE = 200;	// rows drawn before "Show all" (layout of thousands of rows is slow)

export async function render(ctx) {
	const id = ctx.params[0];
	document.title = 'perf diff · experiment ' + id + ' · perflab';
	const q = ctx.query;
	const state = {
		variant: q.get('variant') || '',
		kind: q.get('kind') || '',
		q: q.get('q') || '',
		dso: q.get('dso') || '',
		sort: q.get('sort') || 'delta-abs',
		dir: q.get('dir') === 'asc' ? 'asc' : 'desc',
		hideNoise: q.get('noise') === 'hide',
		all: false,
	};
	const root = h('div', { id: 'perfdiff' });
	ctx.el.appendChild(root);
	root.append(h('div', { class: 'toolbar' },
		h('h1', null, 'perf diff'),
		h('a', { href: link('/experiments/' + id) }, '← experiment #' + id)));

	// With the default view, the largest |delta| rows come first (small
	// answer, quick paint) while the full table loads for sorting/filters.
	const url = '/api/v1/experiments/' + encodeURIComponent(id) + '/perf-diff';
	// (One after the other: on a busy daemon two diffs at once slow both.)
	let fullReq = null;
	const getFull = () => {
		if (!fullReq) {
			fullReq = api(url, { query: { kind: state.kind } });
			fullReq.catch(() => {});
		}
		return fullReq;
	};
	const quick = !state.q && !state.dso && state.sort === 'delta-abs' && !state.hideNoise;
	let res, partial = false;
	try {
		// All sides come back (the variant is picked here, from "diffs"); the
		// server's top rows are by the first compared variant's |delta|.
		res = await (quick ? api(url, { query: { limit: PAGE, kind: state.kind } }) : getFull());
		const first = perfDiff(res);
		partial = quick && first.symbols > first.rows.length;
		const others = first.sides.filter((x) => !x.baseline);
		if (partial && state.variant && others.length > 1 && others[0].name !== state.variant) {
			res = await getFull();
			partial = false;
		}
	} catch (e) {
		if (e.status === 404 || e.status === 409 || e.status === 422) {
			root.appendChild(h('div', { class: 'empty', id: 'perfdiff-empty' },
				h('strong', null, 'No perf diff yet. '), e.message + '. ',
				'A perf diff needs finished runs with profiles (perflab-bench -P) on the control and a variant.'));
			return;
		}
		throw e;
	}
	performance.mark('perfdiff:fetched');
	let data = perfDiff(res, state.variant);
	performance.mark('perfdiff:normalized');
	const base = data.sides.find((s) => s.baseline) || data.sides[0];
	const compared = data.sides.filter((s) => s !== base);
	if (!state.variant && compared.length) state.variant = compared[0].name;
	if (compared.length > 1) data = perfDiff(res, state.variant);
	const noiseMarks = data.columns.some((c) => c.mark === 'noise');

	const textLink = h('a', { href: '/api/v1/experiments/' + id + '/perf-diff?format=text', id: 'text-link', onclick: (e) => { e.preventDefault(); showText(); } }, 'text form for a mail');
	const sampledLink = data.kind !== 'samples' && data.sampledRuns
		? [h('a', { href: link('/experiments/' + id + '/perf-diff', { kind: 'samples' }), id: 'sampled-link' }, 'sampled profiles (perf record) of the same runs'), ' · ']
		: null;
	// the sides (with their samples or IOs) unless the kind sums them up
	root.appendChild(totalsSummary(data, state.variant) || h('p', { class: 'muted' },
		'Event ', h('b', null, data.event || 'cpu-clock'), ' · ',
		data.sides.map((s) => s.name + (s.baseline ? ' (baseline)' : '') + ': ' + fmt.count(s.runs, 'runs') +
			(s.total !== null ? ', ' + fmt.count(s.total, 'samples') : '') + (s.ios !== null ? ', ' + fmt.count(s.ios, 'IOs') : '') +
			(s.lost ? ', ' + fmt.count(s.lost, 'lost') : '')).join(' · '),
		data.unit ? '.' : '. Percentages are shares of all samples of a side; delta is in percentage points.'));
	root.appendChild(h('p', { class: 'muted small' }, fmt.count(data.symbols ?? data.rows.length, 'symbols'),
		data.unit ? ' (' + data.unit + ')' : '', '. ', sampledLink, textLink));
	const textBox = h('div');
	root.appendChild(textBox);
	async function showText() {
		try {
			const t = await api('/api/v1/experiments/' + id + '/perf-diff', { raw: true, query: { format: 'text', variant: state.variant, limit: 50, kind: state.kind } });
			clear(textBox).appendChild(h('pre', { class: 'lkp' }, t));
		} catch (e) { clear(textBox).appendChild(errorBox(e)); }
	}

	const dsoOptions = () => [h('option', { value: '' }, 'all shared objects'),
		[...new Set(data.rows.map((r) => r.dso))].sort().map((d) => h('option', { value: d, selected: d === state.dso }, d))];
	const qInput = h('input', { type: 'search', id: 'symbol-filter', placeholder: 'symbol contains…', value: state.q, oninput: () => { state.q = qInput.value; state.all = false; update(); } });
	const dsoSel = h('select', { id: 'dso-filter', onchange: () => { state.dso = dsoSel.value; state.all = false; update(); } },
		dsoOptions());
	const noiseBox = h('input', { type: 'checkbox', id: 'hide-noise', checked: state.hideNoise, onchange: () => { state.hideNoise = noiseBox.checked; update(); } });
	const variantSel = compared.length > 1 ? h('select', { id: 'variant-select', onchange: () => { location.hash = link('/experiments/' + id + '/perf-diff', { variant: variantSel.value, kind: state.kind }); } },
		compared.map((s) => h('option', { value: s.name, selected: s.name === state.variant }, s.name))) : null;
	root.appendChild(h('div', { class: 'toolbar' },
		variantSel ? h('label', null, base.name + ' vs ', variantSel) : h('span', null, (base ? base.name : 'baseline') + ' vs ' + (state.variant || 'variant')),
		h('label', null, 'Symbol ', qInput), h('label', null, 'Object ', dsoSel),
		noiseMarks ? h('label', null, noiseBox, ' hide deltas within noise') : null));

	const count = h('p', { class: 'muted small', id: 'row-count' });
	const tableBox = h('div', { class: 'scroll' });
	const more = h('div');
	root.append(count, tableBox, more);

	if (data.kind === 'samples') {
		const flame = h('div', { id: 'flame' });
		root.append(h('h2', null, 'Differential flame graph'),
			h('p', { class: 'muted small' }, 'Stacks of ' + (state.variant || 'the variant') + '; colour shows the change against ' + (base ? base.name : 'the control') + ': red = more samples, blue = fewer. Width = share of samples.'),
			flame);
		loadFlame(flame, id, state.variant);
	}

	const onSort = (key, numeric) => {
		if (state.sort === key) state.dir = state.dir === 'desc' ? 'asc' : 'desc';
		else state.dir = numeric ? 'desc' : 'asc';
		state.sort = key;
		update();
	};

	function update() {
		setQuery({ q: state.q, dso: state.dso, sort: state.sort === 'delta-abs' ? '' : state.sort, dir: state.dir === 'desc' ? '' : state.dir, noise: state.hideNoise ? 'hide' : '', variant: compared.length > 1 ? state.variant : '', kind: state.kind });
		const needle = state.q.toLowerCase();
		let rows = data.rows.filter((r) => (!needle || r.symbol.toLowerCase().includes(needle)) && (!state.dso || r.dso === state.dso) && (!state.hideNoise || r.noise !== true));
		const sign = state.dir === 'asc' ? 1 : -1;
		const keyed = rows.map((r) => [perfDiffSortValue(data, r, state.sort), r]);
		keyed.sort((a, b) => (a[0] < b[0] ? -sign : a[0] > b[0] ? sign : 0));
		rows = keyed.map((x) => x[1]);
		count.textContent = partial
			? 'The ' + data.rows.length + ' largest |delta| of ' + fmt.count(data.symbols, 'symbols') + '; loading the rest for sorting and filters…'
			: rows.length === data.rows.length
			? fmt.count(rows.length, 'symbols') + (state.sort === 'delta-abs' ? ', largest |delta| first' : '')
			: fmt.count(rows.length, 'of') + ' ' + fmt.count(data.rows.length, 'symbols match the filter');
		clear(tableBox).appendChild(perfDiffTable(data, { rows, limit: state.all ? 0 : PAGE, sort: state.sort, dir: state.dir, onSort, fixed: true }));
		clear(more);
		if (!rows.length) more.appendChild(h('div', { class: 'empty' }, data.rows.length ? 'No symbol matches the filter; clear the symbol or object filter.' : 'The profiles have no symbols.'));
		else if (!state.all && PAGE < rows.length) more.appendChild(h('button', { type: 'button', id: 'show-all', onclick: () => { state.all = true; update(); } }, 'Show all ' + rows.length + ' rows'));
	}
	update();
	performance.mark('perfdiff:table');
	const complete = () => { root.dataset.complete = '1'; performance.mark('perfdiff:complete'); };
	if (!partial) complete();
	else getFull().then((full) => {
		if (ctx.stale) return;
		data = perfDiff(full, state.variant);
		partial = false;
		dsoSel.replaceChildren(...dsoOptions().flat());
		update();
		complete();
	}, (e) => { clear(more).appendChild(errorBox(e)); });
}

// The SVG is parsed and rebuilt from an allow-list of elements and
// attributes (no scripts, no event handlers, no links), then shown inline
// so its frame tooltips (<title>) work.
const SVG_ELEMS = new Set(['svg', 'g', 'rect', 'text', 'title', 'style', 'tspan']);
const SVG_ATTRS = new Set(['x', 'y', 'width', 'height', 'viewBox', 'fill', 'rx', 'ry', 'class', 'text-anchor',
	'font-size', 'font-family', 'version', 'stroke', 'stroke-width', 'dx', 'dy', 'opacity', 'fill-opacity']);
export function sanitizeSvg(text) {
	const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
	const src = doc.documentElement;
	if (!src || src.nodeName !== 'svg' || doc.getElementsByTagName('parsererror').length) throw new Error('the flame graph is not valid SVG');
	const copy = (n) => {
		if (n.nodeType === 3) return document.createTextNode(n.nodeValue);
		if (n.nodeType !== 1 || !SVG_ELEMS.has(n.localName)) return null;
		const el = document.createElementNS('http://www.w3.org/2000/svg', n.localName);
		for (const a of n.attributes) if (SVG_ATTRS.has(a.name) && !/url\(|javascript:/i.test(a.value)) el.setAttribute(a.name, a.value);
		if (n.localName === 'style') {
			const css = n.textContent;
			if (/url\(|@import|expression/i.test(css)) return null;
			// Scope the graph's CSS to the graph.
			el.textContent = css.replace(/(^|})\s*([^{}@]+)\{/g, (m, b, sel) => b + sel.split(',').map((x) => '#flame svg ' + x.trim()).join(',') + '{');
			return el;
		}
		for (const c of n.childNodes) { const k = copy(c); if (k) el.appendChild(k); }
		return el;
	};
	const svg = copy(src);
	svg.removeAttribute('height');
	svg.setAttribute('width', '100%');
	svg.setAttribute('role', 'img');
	return svg;
}

async function loadFlame(el, id, variant) {
	el.appendChild(h('p', { class: 'muted' }, 'Loading flame graph…'));
	try {
		const text = await api('/api/v1/experiments/' + encodeURIComponent(id) + '/flamegraph.svg', { raw: true, query: { variant } });
		const svg = sanitizeSvg(text);
		svg.setAttribute('id', 'flame-svg');
		svg.setAttribute('class', 'flame');
		const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
		clear(el).append(svg,
			h('p', { class: 'small' }, 'Hover a frame for its samples and change. ',
				h('a', { href: url, download: 'flamegraph-' + id + (variant ? '-' + variant : '') + '.svg' }, 'download SVG')));
	} catch (e) {
		clear(el).appendChild(e.status === 404 || e.status === 409
			? h('div', { class: 'empty' }, 'No flame graph: ' + e.message + '. It needs runs recorded with call stacks (perflab-bench -P).')
			: errorBox(e));
	}
}

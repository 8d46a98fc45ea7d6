// perflab web: small DOM and formatting helpers. Everything that comes from
// the API is put into the page with textContent / attribute setters, never
// as HTML, so patch text, symbol names and logs cannot inject markup.

// h('div', {class: 'x', onclick: fn}, child, 'text', [more]) -> Element
export function h(tag, attrs, ...kids) {
	const el = tag.startsWith('svg:')
		? document.createElementNS('http://www.w3.org/2000/svg', tag.slice(4))
		: document.createElement(tag);
	if (attrs) {
		for (const [k, v] of Object.entries(attrs)) {
			if (v === undefined || v === null || v === false) continue;
			if (k.startsWith('on') && typeof v === 'function')
				el.addEventListener(k.slice(2), v);
			else if (k === 'class') el.className = v;
			else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
			else if (k === 'dataset') Object.assign(el.dataset, v);
			else if (k === 'value' || k === 'checked' || k === 'selected') el[k] = v;
			else el.setAttribute(k, v === true ? '' : String(v));
		}
	}
	append(el, kids);
	return el;
}

function append(el, kids) {
	for (const k of kids) {
		if (k === null || k === undefined || k === false) continue;
		if (Array.isArray(k)) append(el, k);
		else if (k instanceof Node) el.appendChild(k);
		else el.appendChild(document.createTextNode(String(k)));
	}
}

export function clear(el) {
	while (el.firstChild) el.removeChild(el.firstChild);
	return el;
}

// Escape for the rare place a string must be built as HTML (not used for
// API data in the pages; kept for tests and completeness).
export function esc(s) {
	return String(s ?? '').replace(/[&<>"']/g, (c) => ({
		'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
	})[c]);
}

const isNum = (v) => typeof v === 'number' && Number.isFinite(v);

// 3536512 -> "3.54 M"; unit appended by callers.
export function si(v, digits = 3) {
	if (!isNum(v)) return '–';
	const a = Math.abs(v);
	if (a >= 1e9) return (v / 1e9).toPrecision(digits) + ' G';
	if (a >= 1e6) return (v / 1e6).toPrecision(digits) + ' M';
	if (a >= 1e4) return (v / 1e3).toPrecision(digits) + ' K';
	return Number.isInteger(v) ? String(v) : v.toPrecision(digits);
}

export const fmt = {
	iops: (v) => (isNum(v) ? si(v) + ' IOPS' : '–'),
	iopsFull: (v) => (isNum(v) ? Math.round(v).toLocaleString('en-US') + ' IOPS' : '–'),
	ns: (v) => (isNum(v) ? v.toFixed(v < 100 ? 2 : 1) + ' ns/IO' : '–'),
	pct: (v, d = 2) => (isNum(v) ? v.toFixed(d) + ' %' : '–'),
	// Small percentages (icount noise is ~0.001 %) keep two significant digits.
	pctSig: (v) => (isNum(v) ? (v === 0 || Math.abs(v) >= 0.1 ? v.toFixed(2) : v.toPrecision(2)) + ' %' : '–'),
	spct: (v, d = 2) => (isNum(v) ? (v > 0 ? '+' : v < 0 ? '−' : '±') + Math.abs(v).toFixed(d) + ' %' : '–'),
	ratio: (v) => (isNum(v) ? v.toFixed(4) + ' ×' : '–'),
	count: (v, unit) => (isNum(v) ? v.toLocaleString('en-US') + (unit ? ' ' + unit : '') : '–'),
	secs: (v) => (isNum(v) ? (v >= 100 ? Math.round(v) : v.toFixed(1)) + ' s' : '–'),
	bytes: (v) => {
		if (!isNum(v)) return '–';
		const u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
		let i = 0;
		while (v >= 1024 && i < u.length - 1) { v /= 1024; i++; }
		return (i ? v.toFixed(1) : v) + ' ' + u[i];
	},
	// UNIX seconds (or ISO string) -> "2026-11-29 20:45 UTC"
	time: (t) => {
		const d = toDate(t);
		if (!d) return '–';
		return d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';
	},
	date: (t) => {
		const d = toDate(t);
		return d ? d.toISOString().slice(0, 10) : '–';
	},
	ago: (t) => {
		const d = toDate(t);
		if (!d) return 'never';
		const s = Math.round((Date.now() - d.getTime()) / 1000);
		if (s < 0) return 'just now';
		if (s < 60) return s + ' s ago';
		if (s < 3600) return Math.round(s / 60) + ' min ago';
		if (s < 86400) return (s / 3600).toFixed(1) + ' h ago';
		return Math.round(s / 86400) + ' d ago';
	},
};

export function toDate(t) {
	if (t === null || t === undefined || t === '') return null;
	if (typeof t === 'number') return new Date(t < 1e12 ? t * 1000 : t);
	const d = new Date(t);
	return isNaN(d) ? null : d;
}
export function toUnix(t) {
	const d = toDate(t);
	return d ? d.getTime() / 1000 : null;
}

// Hash route helpers: "#/path?x=1&y=2"
export function parseHash(hash = location.hash) {
	const s = hash.replace(/^#/, '') || '/';
	const qi = s.indexOf('?');
	const path = qi < 0 ? s : s.slice(0, qi);
	const query = new URLSearchParams(qi < 0 ? '' : s.slice(qi + 1));
	return { path, query, parts: path.split('/').filter(Boolean).map(decodeURIComponent) };
}

export function link(path, query) {
	let q = '';
	if (query) {
		const p = new URLSearchParams();
		for (const [k, v] of Object.entries(query))
			if (v !== undefined && v !== null && v !== '') p.set(k, v);
		q = p.toString();
	}
	return '#' + path + (q ? '?' + q : '');
}

// Replace the query of the current URL without adding a history entry and
// without re-rendering (filters, sort, zoom).
export function setQuery(changes) {
	const { path, query } = parseHash();
	for (const [k, v] of Object.entries(changes)) {
		if (v === undefined || v === null || v === '') query.delete(k);
		else query.set(k, v);
	}
	const q = query.toString();
	history.replaceState(null, '', '#' + path + (q ? '?' + q : ''));
}

export function cssVar(name) {
	return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

// Stable colours for variants: control first.
export function variantColor(i) {
	const vars = ['--c-a', '--c-b', '--c-c', '--c-d', '--c-e', '--c-f'];
	return cssVar(vars[i % vars.length]) || ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2'][i % 6];
}

export function verdictBadge(verdict) {
	if (!verdict) return h('span', { class: 'badge badge-none' }, 'no verdict yet');
	const cls = { regression: 'bad', improvement: 'good', 'no change': 'neutral', inconclusive: 'warn' }[verdict] || 'none';
	return h('span', { class: 'badge badge-' + cls }, verdict);
}

export function stateBadge(state) {
	return h('span', { class: 'state state-' + String(state || 'unknown').replace(/[^a-z]/g, '') }, state || 'unknown');
}

export function arr(x, ...keys) {
	if (Array.isArray(x)) return x;
	if (x && typeof x === 'object')
		for (const k of keys) if (Array.isArray(x[k])) return x[k];
	return [];
}

export function num(...vs) {
	for (const v of vs) {
		if (typeof v === 'number' && Number.isFinite(v)) return v;
		if (typeof v === 'string' && v !== '' && Number.isFinite(+v)) return +v;
	}
	return null;
}

export function median(a) {
	const s = a.filter(isNum).sort((x, y) => x - y);
	if (!s.length) return null;
	const m = s.length >> 1;
	return s.length & 1 ? s[m] : (s[m - 1] + s[m]) / 2;
}

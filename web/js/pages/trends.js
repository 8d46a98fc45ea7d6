// Trends: tracked-baseline and imported series per host / bench, change
// points marked (dashed lines) and linked to their alerts. Drag to zoom;
// the zoom and the selection live in the URL:
// #/trends?series=ID,ID&host=&q=&from=UNIX&to=UNIX
import { h, clear, fmt, link, setQuery, num, arr, toUnix } from '../util.js';
import { metricLabel } from '../metrics.js';
import { api } from '../api.js';
import { trendChart } from '../charts.js';
import { normAlert, normHost, normSeries, worse } from '../model.js';
import { errorBox } from '../widgets.js';

const unitOf = metricLabel;

export async function render(ctx) {
	document.title = 'Trends · perflab';
	const q = ctx.query;
	const root = h('div', { id: 'trends' });
	ctx.el.appendChild(root);
	root.appendChild(h('h1', null, 'Trends'));

	// Alerts (to link change points) load while the series do.
	const alertsReq = api('/api/v1/alerts', { query: { limit: 1000 } });
	alertsReq.catch(() => {});
	const listRes = await api('/api/v1/series');
	let list = arr(listRes.series).map(normSeries);
	// Host names for series that carry only host_id.
	if (list.some((s) => !s.host && s.hostId !== null)) {
		try {
			const hs = arr((await api('/api/v1/hosts')).hosts).map(normHost);
			for (const s of list) if (!s.host && s.hostId !== null) s.host = (hs.find((x) => x.id === s.hostId) || {}).name || 'host ' + s.hostId;
		} catch { /* names are a nicety */ }
	}
	if (!list.length) {
		root.appendChild(h('div', { class: 'empty', id: 'trends-empty' },
			h('strong', null, 'No series yet. '),
			'Series come from tracked baselines (', h('code', null, 'POST /api/v1/baselines'),
			') as their runs finish, or import a history with ', h('code', null, 'POST /api/v1/series/import'), ' (CSV or JSON: time, value, label).'));
		return;
	}
	const hosts = [...new Set(list.map((s) => s.host).filter(Boolean))].sort();
	const sel = {
		host: q.get('host') || '',
		q: q.get('q') || '',
		ids: (q.get('series') || '').split(',').filter(Boolean),
		from: num(q.get('from')), to: num(q.get('to')),
	};
	const hostSel = h('select', { id: 'host-filter', onchange: () => { sel.host = hostSel.value; setQuery({ host: sel.host }); draw(); } },
		h('option', { value: '' }, 'all hosts'), hosts.map((x) => h('option', { value: x, selected: x === sel.host }, x)));
	const qIn = h('input', { type: 'search', id: 'series-filter', placeholder: 'series name contains…', value: sel.q, onchange: () => { sel.q = qIn.value; setQuery({ q: sel.q }); draw(); } });
	const rangeBtn = (label, days) => h('button', { type: 'button', onclick: () => {
		const ends = shownSeries.map((s) => s.points.t[s.points.t.length - 1]).filter((x) => x !== undefined);
		if (!ends.length) return;
		const maxT = Math.max(...ends);
		if (days) zoom(maxT - days * 86400, maxT); else zoom(null, null);
	} }, label);
	root.appendChild(h('div', { class: 'toolbar' },
		h('label', null, 'Host ', hostSel), h('label', null, 'Series ', qIn),
		h('span', null, 'Range: '), rangeBtn('30 days', 30), rangeBtn('6 months', 182), rangeBtn('1 year', 365), rangeBtn('all', 0),
		h('span', { class: 'muted small' }, 'Drag across a chart to zoom; click a dashed line to open its alert.')));
	const body = h('div');
	root.appendChild(body);

	// Alerts, to link change points (best effort: the page works without).
	const alertByCp = new Map(), alertBySeries = new Map();
	const alertsReady = (async () => { try {
		const a = await alertsReq;
		for (const al of arr(a.alerts).map(normAlert)) {
			if (al.changePointId !== null) alertByCp.set(al.changePointId, al);
			if (al.seriesId !== null) (alertBySeries.get(al.seriesId) || alertBySeries.set(al.seriesId, []).get(al.seriesId)).push(al);
		}
	} catch { /* alerts unavailable: change points are shown without links */ } })();

	let charts = [];
	let shownSeries = [];
	function zoom(min, max) {
		sel.from = min; sel.to = max;
		setQuery({ from: min === null ? '' : Math.round(min), to: max === null ? '' : Math.round(max) });
		for (const u of charts) {
			if (min === null) {
				const xs = u.data[0];
				u.setScale('x', { min: xs[0], max: xs[xs.length - 1] });
			} else u.setScale('x', { min, max });
		}
	}

	// Panels are laid out at once; a series' points are fetched and its
	// chart drawn when the panel comes near the viewport (a lab with many
	// hosts does not fetch every series up front).
	let observer = null;
	async function draw() {
		clear(body);
		for (const u of charts) u.destroy();
		charts = [];
		if (observer) observer.disconnect();
		let want = list.filter((s) => (!sel.host || s.host === sel.host) && (!sel.q || s.name.toLowerCase().includes(sel.q.toLowerCase())));
		if (sel.ids.length) want = want.filter((s) => sel.ids.includes(String(s.id)));
		if (!want.length) {
			body.appendChild(h('div', { class: 'empty' }, 'No series match the filter. Clear the host or name filter.'));
			return;
		}
		shownSeries = want;
		const panels = want.map((s) => {
			const panel = h('div', { class: 'panel series', dataset: { id: s.id } },
				h('h3', null, s.name, ' ', h('span', { class: 'muted small head' }, headText(s))),
				h('div', { class: 'chart-slot', style: { minHeight: '250px' } }, h('p', { class: 'muted' }, 'Loading…')));
			body.appendChild(panel);
			return { s, panel, done: null };
		});
		const fill = (p) => {
			if (!p.done) p.done = fillPanel(p.s, p.panel).catch((e) => { p.panel.querySelector('.chart-slot').replaceChildren(errorBox(e)); });
			return p.done;
		};
		const margin = 300;
		const near = panels.filter((p) => p.panel.getBoundingClientRect().top < window.innerHeight + margin);
		observer = new IntersectionObserver((entries) => {
			for (const en of entries) if (en.isIntersecting) {
				const p = panels.find((x) => x.panel === en.target);
				observer.unobserve(en.target);
				if (p) fill(p);
			}
		}, { rootMargin: margin + 'px' });
		for (const p of panels) if (!near.includes(p)) observer.observe(p.panel);
		await Promise.all(near.map(fill));
		performance.mark('trends:visible-drawn');
	}

	function headText(s) {
		const n = s.points.t.length || s.count || 0;
		const last = s.points.v[s.points.v.length - 1];
		return [s.host && 'host ' + s.host, s.label && 'label ' + s.label, fmt.count(n, 'points'),
			s.points.t.length ? fmt.date(s.points.t[0]) + ' → ' + fmt.date(s.points.t[s.points.t.length - 1]) : null,
			last !== undefined ? 'latest ' + fmt.count(Math.round(last), unitOf(s.metric)) : null].filter(Boolean).join(' · ');
	}

	// The newest keyset page of a series' points (GET /api/v1/series:
	// next, before=NEXT); "older points" prepends the page before it.
	async function fillPanel(s, panel) {
		if (!s.points.t.length && s.count) {
			const r = await api('/api/v1/series', { query: { id: s.id, format: 'pairs' } });
			const full = normSeries(r);
			Object.assign(s, { points: full.points, next: full.next, changePoints: full.changePoints.length ? full.changePoints : s.changePoints });
		}
		await alertsReady;
		if (ctx.stale || !panel.isConnected) return;
		panel.querySelector('.head').textContent = headText(s);
		const slot = panel.querySelector('.chart-slot');
		slot.replaceChildren();
		slot.style.minHeight = '';
		if (!s.points.t.length) {
			slot.appendChild(h('div', { class: 'empty' }, 'This series has no points yet.'));
			return;
		}
		const cps = s.changePoints.map((c) => Object.assign({}, c, { alert: c.id !== null ? alertByCp.get(c.id) : null }));
		const u = trendChart(slot, s.name, s.points, cps, {
			unit: unitOf(s.metric), range: [sel.from, sel.to],
			onZoom: (min, max) => {
				sel.from = min; sel.to = max;
				setQuery({ from: Math.round(min), to: Math.round(max) });
				for (const o of charts) if (o !== u && (o.scales.x.min !== min || o.scales.x.max !== max)) o.setScale('x', { min, max });
			},
			onPick: (cp) => { location.hash = cp.alert ? link('/alerts', { id: cp.alert.id }) : link('/alerts', { series: s.id }); },
		});
		u.over.addEventListener('dblclick', () => setTimeout(() => zoom(null, null), 0));
		charts.push(u);
		if (s.next !== null && s.next !== undefined)
			slot.appendChild(h('p', { class: 'small' }, h('button', { type: 'button', class: 'link older-points', onclick: async () => {
				const older = normSeries(await api('/api/v1/series', { query: { id: s.id, format: 'pairs', before: s.next } }));
				s.points = { t: older.points.t.concat(s.points.t), v: older.points.v.concat(s.points.v) };
				s.next = older.next;
				charts.splice(charts.indexOf(u), 1);
				u.destroy();
				await fillPanel(s, panel);
			} }, 'older points ←')));
		if (cps.length) {
			slot.appendChild(h('table', { class: 'small change-points' },
				h('thead', null, h('tr', null, h('th', null, 'Change point'), h('th', { class: 'num' }, 'Before'), h('th', { class: 'num' }, 'After'), h('th', { class: 'num' }, 'Change'), h('th', { class: 'num' }, 'p'), h('th', null, 'Alert'))),
				h('tbody', null, cps.map((c) => h('tr', null,
					h('td', null, h('button', { class: 'link', type: 'button', onclick: () => zoom(c.t - 60 * 86400, c.t + 60 * 86400) }, fmt.date(c.t))),
					h('td', { class: 'num' }, fmt.count(c.before === null ? null : Math.round(c.before), unitOf(s.metric))),
					h('td', { class: 'num' }, fmt.count(c.after === null ? null : Math.round(c.after), unitOf(s.metric))),
					h('td', { class: 'num ' + (worse(s.metric, c.delta) ? 'pos' : c.delta ? 'neg' : '') }, fmt.spct(c.delta)),
					h('td', { class: 'num' }, c.p === null ? '–' : c.p.toPrecision(2)),
					h('td', null, c.alert ? h('a', { href: link('/alerts', { id: c.alert.id }) }, 'alert #' + c.alert.id + (c.alert.state ? ' (' + c.alert.state + ')' : '')) : h('span', { class: 'muted' }, 'no alert')))))));
		} else slot.appendChild(h('p', { class: 'muted small' }, 'No change points detected.'));
	}
	await draw();
	ctx.cleanup.push(() => { for (const u of charts) u.destroy(); if (observer) observer.disconnect(); });
}

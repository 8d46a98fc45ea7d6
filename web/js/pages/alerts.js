// Alerts: regression verdicts and change points, with triage states that
// can be changed in place (PATCH /api/v1/alerts/{id}; submit or admin key).
// URL: #/alerts?state=&id=&series=
import { h, clear, fmt, link, setQuery, stateBadge, arr } from '../util.js';
import { metricLabel } from '../metrics.js';
import { api } from '../api.js';
import { normAlert, worse } from '../model.js';
import { errorBox } from '../widgets.js';

export const STATES = ['new', 'acknowledged', 'investigating', 'invalid', 'fixed', 'wontfix'];
const LIMIT = 200;

export async function render(ctx) {
	document.title = 'Alerts · perflab';
	const q = ctx.query;
	const filter = { state: q.get('state') || '', id: q.get('id') || '', series: q.get('series') || '', before: q.get('before') || '' };
	const root = h('div', { id: 'alerts' });
	ctx.el.appendChild(root);
	const sel = h('select', { id: 'alert-state-filter', onchange: () => { filter.state = sel.value; filter.before = ''; setQuery({ state: filter.state, before: '' }); load(); } },
		h('option', { value: '' }, 'all states'), STATES.map((s) => h('option', { value: s, selected: s === filter.state }, s)));
	root.appendChild(h('div', { class: 'toolbar' }, h('h1', null, 'Alerts'), h('span', { class: 'spacer' }), h('label', null, 'State ', sel),
		filter.id || filter.series ? h('a', { href: link('/alerts') }, 'show all alerts') : null));
	const msg = h('div', { id: 'alert-msg' });
	const body = h('div');
	root.append(msg, body);

	async function load() {
		let list, next = null;
		try {
			// One keyset page (GET /api/v1/alerts: next, before=NEXT).
			const res = await api('/api/v1/alerts', { query: { state: filter.id ? '' : filter.state, limit: LIMIT, before: filter.id ? '' : filter.before } });
			list = arr(res.alerts).map(normAlert);
			next = filter.id ? null : res.next ?? null;
			if (filter.id) list = list.filter((a) => String(a.id) === filter.id);
			if (filter.series) list = list.filter((a) => String(a.seriesId) === filter.series);
			if (filter.state && !filter.id) list = list.filter((a) => a.state === filter.state);
		} catch (e) {
			clear(body).appendChild(errorBox(e));
			return;
		}
		if (ctx.stale) return;
		clear(body);
		if (!list.length) {
			body.appendChild(h('div', { class: 'empty', id: 'alerts-empty' },
				h('strong', null, filter.id ? 'There is no alert #' + filter.id + '. ' : filter.state ? 'No alerts in state ' + filter.state + '. ' : 'No alerts. '),
				'Alerts are raised for regression verdicts beyond a host’s MDE and for change points that lower a tracked series.'));
			return;
		}
		if (filter.before || next)
			body.appendChild(h('p', { class: 'toolbar' },
				filter.before ? h('a', { href: link('/alerts', { state: filter.state }) }, '← newest') : null,
				next ? h('a', { href: link('/alerts', { state: filter.state, before: next }), id: 'older-alerts' }, 'older alerts →') : null));
		body.appendChild(h('table', { id: 'alerts-table' },
			h('thead', null, h('tr', null, h('th', { class: 'num' }, '#'), h('th', null, 'Alert'), h('th', { class: 'num' }, 'Change'), h('th', null, 'Source'),
				h('th', null, 'Raised'), h('th', null, 'Triage'), h('th', null, 'Last change'))),
			h('tbody', null, list.map(row))));
	}

	function row(a) {
		const status = h('span', { class: 'muted small save-status' });
		const select = h('select', {
			class: 'triage', dataset: { id: a.id }, 'aria-label': 'triage state of alert ' + a.id,
			onchange: async () => {
				const to = select.value;
				select.disabled = true;
				status.textContent = 'saving…';
				try {
					const r = await api('/api/v1/alerts/' + a.id, { method: 'PATCH', json: { state: to } });
					const n = r ? normAlert(r) : null;
					a.state = (n && n.state) || to;
					status.textContent = 'saved';
					badge.replaceWith(badge = stateBadge(a.state));
					if (n) who.textContent = whoText(n);
				} catch (e) {
					select.value = a.state;
					status.textContent = '';
					clear(msg).appendChild(errorBox(e));
				} finally {
					select.disabled = false;
				}
			},
		}, STATES.map((s) => h('option', { value: s, selected: s === a.state }, s)));
		let badge = stateBadge(a.state);
		const who = h('span', null, whoText(a));
		return h('tr', { dataset: { id: a.id } },
			h('td', { class: 'num' }, String(a.id)),
			h('td', { class: 'wrap-anywhere' }, a.title || '(untitled)', h('div', { class: 'muted small' }, a.kind === 'change_point' ? 'change point' : a.kind === 'verdict' ? 'regression verdict' : a.kind, a.metric ? ' · ' + a.metric : '')),
			h('td', { class: 'num ' + (worse(a.metric, a.delta) ? 'pos' : '') }, fmt.spct(a.delta), a.metric ? h('div', { class: 'muted small' }, metricLabel(a.metric)) : null),
			h('td', null,
				a.experimentId !== null ? h('a', { href: link('/experiments/' + a.experimentId) }, 'experiment #' + a.experimentId) : null,
				a.seriesId !== null ? h('a', { href: link('/trends', { series: a.seriesId }) }, 'series #' + a.seriesId) : null),
			h('td', { class: 'nowrap', title: fmt.time(a.created) }, fmt.ago(a.created)),
			h('td', { class: 'nowrap' }, badge, ' ', select, ' ', status),
			h('td', { class: 'small muted' }, who, historyOf(a)));
	}
	await load();
	let timer = null;
	ctx.onEvent((ev) => { if (/alert/.test(ev.event)) { clearTimeout(timer); timer = setTimeout(load, 300); } });
	ctx.cleanup.push(() => clearTimeout(timer));
}

// Every triage change with who and when (GET /api/v1/alerts/{id}), on demand.
function historyOf(a) {
	const d = h('details', { class: 'history' }, h('summary', null, 'history'));
	d.addEventListener('toggle', async () => {
		if (!d.open || d.dataset.loaded) return;
		d.dataset.loaded = '1';
		try {
			const r = await api('/api/v1/alerts/' + a.id);
			const hist = normAlert(r).history;
			d.appendChild(hist.length
				? h('ul', null, hist.map((x) => h('li', null, x.state, ' by ', x.who || '?', ', ', fmt.time(x.at), x.note ? ' — ' + x.note : '')))
				: h('p', null, 'No changes yet.'));
		} catch (e) {
			d.appendChild(errorBox(e));
		}
	});
	return d;
}

function whoText(a) {
	const h0 = a.history.length ? a.history[a.history.length - 1] : null;
	const who = a.who;
	const at = a.updated || (h0 && h0.at);
	return (who ? 'by ' + who + ', ' : '') + fmt.ago(at);
}

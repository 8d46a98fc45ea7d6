// Queue / experiments: live list with state, submitter, patch subject, host,
// progress and verdict. Filter by state is in the URL (#/experiments?state=).
import { h, clear, fmt, link, verdictBadge, stateBadge, arr } from '../util.js';
import { metricDefs, metricLabel } from '../metrics.js';
import { api } from '../api.js';
import { normExperiment } from '../model.js';
import { errorBox } from '../widgets.js';

const STATES = ['', 'queued', 'running', 'done', 'failed', 'cancelled'];
const LIMIT = 100;

export async function render(ctx) {
	document.title = 'Queue · perflab';
	const state = ctx.query.get('state') || '';
	const before = ctx.query.get('before') || '';	// page: ids below this
	const body = h('div');
	const sel = h('select', {
		id: 'state-filter',
		onchange: () => { location.hash = link('/experiments', { state: sel.value }); },
	}, STATES.map((s) => h('option', { value: s, selected: s === state }, s || 'all states')));
	ctx.el.append(
		h('div', { class: 'toolbar' },
			h('h1', null, 'Experiments'),
			h('span', { class: 'spacer' }),
			h('label', null, 'State ', sel),
			h('a', { href: '#/submit' }, h('button', { type: 'button', class: 'primary' }, 'Submit a patch'))),
		body);

	let timer = null;
	async function load() {
		let list, next = null;
		try {
			const res = await api('/api/v1/experiments', { query: { state: sel.value, limit: LIMIT, before } });
			list = arr(res.experiments).map(normExperiment).filter(Boolean);
			next = res.next ?? null;	// keyset cursor of the older page
		} catch (e) {
			clear(body).appendChild(errorBox(e));
			return;
		}
		if (ctx.stale) return;
		clear(body);
		if (!list.length) {
			body.appendChild(h('div', { class: 'empty', id: 'queue-empty' },
				h('strong', null, sel.value ? 'No ' + sel.value + ' experiments. ' : 'No experiments yet. '),
				'Submit a patch on the ', h('a', { href: '#/submit' }, 'Submit page'),
				' or with ', h('code', null, 'perflab submit FILE.patch --runs 10'), '.'));
			return;
		}
		body.appendChild(table(list));
		body.appendChild(h('p', { class: 'toolbar' },
			before ? h('a', { href: link('/experiments', { state: sel.value }) }, '← newest') : null,
			next ? h('a', { href: link('/experiments', { state: sel.value, before: next }), id: 'older' }, 'older experiments →') : null));
	}

	function table(list) {
		return h('table', { id: 'queue-table' },
			h('thead', null, h('tr', null,
				h('th', { class: 'num' }, '#'), h('th', null, 'Patch / title'), h('th', null, 'State'),
				h('th', null, 'Submitter'), h('th', null, 'Host'), h('th', null, 'Progress'),
				h('th', null, 'Verdict'), h('th', { class: 'num' }, 'Δ'), h('th', null, 'Submitted'))),
			h('tbody', null, list.map((e) => {
				const pct = e.planned ? Math.min(100, Math.round((100 * (e.done || 0)) / e.planned)) : 0;
				return h('tr', { dataset: { id: e.id } },
					h('td', { class: 'num' }, h('a', { href: link('/experiments/' + e.id) }, String(e.id))),
					h('td', { class: 'wrap-anywhere' }, h('a', { href: link('/experiments/' + e.id) }, e.title),
						e.subject && e.subject !== e.title ? h('div', { class: 'muted small' }, e.subject) : null),
					h('td', null, stateBadge(e.state)),
					h('td', null, e.submitter || h('span', { class: 'muted' }, '–')),
					h('td', null, e.host || h('span', { class: 'muted' }, e.label ? 'label ' + e.label : 'any')),
					h('td', { class: 'nowrap progress-cell' },
						h('span', { class: 'progress' }, h('span', { style: { width: pct + '%' } })),
						e.planned !== null ? (e.done ?? 0) + ' / ' + e.planned + ' runs' : '–'),
					h('td', null, verdictBadge(e.verdict)),
					h('td', { class: 'num' }, e.delta !== null ? fmt.spct(e.delta) + ' ' + metricLabel(e.verdictMetric || (metricDefs()[0] || {}).name || '') : '–'),
					h('td', { class: 'nowrap muted' }, fmt.ago(e.created)));
			})));
	}

	await load();
	// Live: refresh on any experiment/job event (debounced), and every 30 s.
	ctx.onEvent((ev) => {
		if (/experiment|job|run|verdict|comparison/.test(ev.event + ' ' + (ev.data && ev.data.type))) {
			clearTimeout(timer);
			timer = setTimeout(load, 300);
		}
	});
	const iv = setInterval(load, 30000);
	ctx.cleanup.push(() => { clearInterval(iv); clearTimeout(timer); });
}

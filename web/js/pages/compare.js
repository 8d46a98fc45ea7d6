// Compare logs: paste benchmark output of two (or more) variants — t/io_uring
// lines (old "inflight=(…)" and new "IOPS=3.54M, BW=…" forms), perflab-bench
// output or JSON, fio JSON — and get the verdict without running anything
// (POST /api/v1/compare). Nothing is stored.
import { h, clear } from '../util.js';
import { api } from '../api.js';
import { normComparison } from '../model.js';
import { errorBox, verdictPanel } from '../widgets.js';

export async function render(ctx) {
	document.title = 'Compare logs · perflab';
	const root = h('div', { id: 'compare' });
	ctx.el.appendChild(root);
	root.append(h('h1', null, 'Compare benchmark logs'),
		h('p', { class: 'muted' }, 'Paste the output of the control run(s) and of the changed kernel: t/io_uring lines such as ',
			h('code', null, 'IOPS=3536512, IOS/call=32/31, inflight=(75)'), ', perflab-bench output or JSON, or fio JSON. ',
			'Several runs of one side can go in one box, separated by blank lines. Nothing is stored. From a shell: ',
			h('code', null, 'perflab compare A.log B.log')));
	const sides = h('div', { class: 'grid2' });
	const boxes = [];
	const addSide = (name) => {
		const nameIn = h('input', { type: 'text', class: 'log-name', value: name, size: 16, 'aria-label': 'variant name' });
		const text = h('textarea', { class: 'log-text', rows: 14, spellcheck: 'false', placeholder: 'IOPS=…, IOS/call=…, inflight=(…)' });
		const file = h('input', { type: 'file', accept: '.log,.txt,.json', onchange: async () => { if (file.files[0]) text.value = await file.files[0].text(); } });
		boxes.push({ nameIn, text });
		sides.appendChild(h('div', { class: 'panel' }, h('label', null, 'Variant ', nameIn), ' ', file, text));
	};
	addSide('old');
	addSide('new');
	const warm = h('input', { type: 'number', id: 'compare-warmup', min: 0, max: 600, value: 0, style: { width: '5em' } });
	const out = h('div', { id: 'compare-result' });
	const btn = h('button', { type: 'submit', class: 'primary', id: 'compare-button' }, 'Compare');
	root.append(h('form', { id: 'compare-form', onsubmit: async (e) => {
		e.preventDefault();
		clear(out);
		const logs = boxes.filter((b) => b.text.value.trim()).map((b) => ({ name: b.nameIn.value.trim() || 'variant', text: b.text.value }));
		if (logs.length < 2) {
			out.appendChild(h('div', { class: 'error' }, 'Paste the logs of at least two variants (the first is the control).'));
			return;
		}
		btn.disabled = true;
		try {
			const r = await api('/api/v1/compare', { method: 'POST', json: { logs, warmup: Number(warm.value) || 0 } });
			const comps = (r.comparisons || []).map(normComparison).filter(Boolean);
			out.append(verdictPanel({ comparisons: comps, state: 'done' }),
				h('h2', null, 'Table'), h('pre', { class: 'lkp', id: 'compare-text' }, r.text || comps.map((c) => c.text).join('\n')));
		} catch (err) {
			out.appendChild(err.status === 400 || err.status === 422
				? h('div', { class: 'error', role: 'alert' }, h('strong', null, 'The logs could not be read: '), err.message)
				: errorBox(err));
		} finally {
			btn.disabled = false;
		}
	} }, sides,
	h('div', { class: 'toolbar' },
		h('button', { type: 'button', onclick: () => addSide('variant' + (boxes.length + 1)) }, 'Add a variant'),
		h('label', null, 'Drop the first ', warm, ' s of each run (warm-up)'), btn)), out);
}

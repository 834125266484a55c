#!/usr/bin/python3
"""
Fine-tunes the PP-OCRv4 recogniser's last layers on generated text (`npm run train:ocr`, step 2 of 3;
docs/ocr.md "Fine-tuned recogniser").

The recogniser's neck ends in a 1x1 convolution (60 -> 120, no bias) + batch norm + swish, then the CTC
head (Linear 120 -> 6,625; a class no training label holds keeps its column). scripts/train/ocr-data.ts saved, for every generated sample, the map feeding that
convolution (60 x steps, read by the package's own backbone on the app's own crop) and the label. Trained
here, initialised from the package's values: the convolution's weights, the batch norm's scale and shift
(its running mean and variance stay) and the Linear layer, with CTC loss plus an L2 pull toward the
package's values (so what the generated text does not show is not forgotten). torch 1.13 CPU, fixed seeds,
one thread: the same data gives the same weights.

Writes resources/ocr/ch_PP-OCRv4_rec_head.npz (the tensors by their initialiser names; scripts/fuse-ocr-models.py
substitutes them) and prints exact-line rates, package vs fine-tuned, on training and validation samples
(validation pages are printed in faces training never sees).

Usage: /usr/bin/python3 scripts/train/ocr-head.py DIR [--epochs N] [--pull L] [--distill A] [--keep K] [--lr R] [--fc-only] [--dash-equal] [--blend B]
       [--lone K] [--report HEAD.npz] [--out FILE]
"""
import json
import os
import sys
import re
import time
import unicodedata

try:
    import numpy as np
    import onnx
    from onnx import numpy_helper as nh
    import torch
    import torch.nn.functional as F
except ImportError:
    sys.exit('需要 python3-torch、python3-numpy、python3-onnx，用 /usr/bin/python3 运行')

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SOURCE = os.path.join(ROOT, 'node_modules', '@gutenye', 'ocr-models', 'assets')
CONV, BN, FC = 'conv2d_146.w_0', 'batch_norm2d_152', 'linear_85'
EPS = 1e-5
FEAT = 60


def norm(t):
    return ''.join(unicodedata.normalize('NFKC', t).split())


HAN = re.compile('[\u4e00-\u9fff]')
KINDS = [
    ('lone short cell (<= 2, no Han)', lambda t: len(t) <= 2 and not HAN.search(t)),
    ('number', lambda t: re.fullmatch(r'[+-]?\d+(\.\d+)?', t) is not None),
    ('with %', lambda t: '%' in t),
    ('with ‰', lambda t: '‰' in t),
    ('with — (dash)', lambda t: '—' in t),
    ('with 一', lambda t: '一' in t),
    ('Roman numeral', lambda t: re.search('[ⅡⅢⅣ]|(?<![A-Za-z])I(?![A-Za-z])', t) is not None),
    ('sign ≤ ≥ ±', lambda t: re.search('[≤≥±]', t) is not None),
    ('unit (kV A s Ω ℃ Hz mm²)', lambda t: re.search('kV|kVA|MΩ|Ω|mm²|℃|Hz|\d(A|s)$', t) is not None),
    ('Han only', lambda t: re.fullmatch('[\u4e00-\u9fff]+', t) is not None),
    ('statute line (>= 15 chars)', lambda t: len(t) >= 15),
]


def arg(name, default):
    a = sys.argv
    return type(default)(a[a.index(name) + 1]) if name in a else default


def dictionary():
    with open(os.path.join(SOURCE, 'ppocr_keys_v1.txt'), encoding='utf-8') as f:
        chars = f.read().replace('\r', '').split('\n')
    if chars[-1] == '':
        chars.pop()
    return chars + [' ']


def package_weights():
    m = onnx.load(os.path.join(SOURCE, 'ch_PP-OCRv4_rec_infer.onnx'))
    init = {t.name: nh.to_array(t) for t in m.graph.initializer}
    init.update({n.output[0]: nh.to_array(n.attribute[0].t) for n in m.graph.node if n.op_type == 'Constant'})
    return {k: init[k].astype(np.float32) for k in [CONV, BN + '.w_0', BN + '.b_0', BN + '.w_1', BN + '.w_2', FC + '.w_0', FC + '.b_0']}


def load(dir, *splits):
    """The samples of the given splits (those present) and their features, one array."""
    samples, feats, base = [], [], 0
    for split in splits:
        if not os.path.exists(os.path.join(dir, split + '.json')):
            continue
        with open(os.path.join(dir, split + '.json'), encoding='utf-8') as f:
            part = json.load(f)
        f32 = np.fromfile(os.path.join(dir, split + '.bin'), dtype=np.float32)
        samples += [{**s, 'off': s['off'] + base} for s in part]
        feats.append(f32)
        base += f32.size
    return samples, np.concatenate(feats)


class Head(torch.nn.Module):
    def __init__(self, w):
        super().__init__()
        p = lambda a: torch.nn.Parameter(torch.tensor(a))
        self.conv = p(w[CONV].reshape(120, FEAT))
        self.gamma = p(w[BN + '.w_0'])
        self.beta = p(w[BN + '.b_0'])
        self.register_buffer('mean', torch.tensor(w[BN + '.w_1']))
        self.register_buffer('std', torch.tensor(np.sqrt(w[BN + '.w_2'] + EPS)))
        self.fc = p(w[FC + '.w_0'])
        self.bias = p(w[FC + '.b_0'])
        self.start = [q.detach().clone() for q in self.parameters()]
        # the package's layers, frozen: what the fine-tuned ones are distilled toward
        self.package = None

    def forward(self, x):
        """x: batch x steps x 60 -> log-probabilities batch x steps x classes"""
        h = x @ self.conv.t()
        h = (h - self.mean) / self.std * self.gamma + self.beta
        h = h * torch.sigmoid(h)
        return F.log_softmax(h @ self.fc + self.bias, dim=-1)

    def package_logp(self, x):
        with torch.no_grad():
            conv, gamma, beta, fc, bias = self.start
            h = x @ conv.t()
            h = (h - self.mean) / self.std * gamma + beta
            h = h * torch.sigmoid(h)
            return F.log_softmax(h @ fc + bias, dim=-1)

    def pull(self):
        return sum(((q - s) ** 2).sum() for q, s in zip(self.parameters(), self.start))

    def weights(self):
        d = lambda t: t.detach().numpy().astype(np.float32)
        return {
            CONV: d(self.conv).reshape(120, FEAT, 1, 1),
            BN + '.w_0': d(self.gamma),
            BN + '.b_0': d(self.beta),
            FC + '.w_0': d(self.fc),
            FC + '.b_0': d(self.bias),
        }


def batch(samples, feats, idx):
    steps = max(samples[i]['steps'] for i in idx)
    x = np.zeros((len(idx), steps, FEAT), np.float32)
    for k, i in enumerate(idx):
        s = samples[i]
        x[k, : s['steps']] = feats[s['off'] : s['off'] + s['steps'] * FEAT].reshape(FEAT, s['steps']).T
    return torch.from_numpy(x)


def decode(logp, steps, chars):
    best = logp.argmax(-1).numpy()
    out = []
    for k, n in enumerate(steps):
        prev, text = -1, ''
        for c in best[k, :n]:
            if c != 0 and c != prev:
                text += chars[c - 1]
            prev = c
        out.append(text)
    return out


def exact(model, samples, feats, chars, idx):
    """share of samples read exactly (trailing/leading spaces ignored, as the app trims)"""
    right = 0
    with torch.no_grad():
        for b in range(0, len(idx), 64):
            part = idx[b : b + 64]
            texts = decode(model(batch(samples, feats, part)), [samples[i]['steps'] for i in part], chars)
            right += sum(norm(t) == norm(samples[i]['label']) for t, i in zip(texts, part))
    return right / max(1, len(idx))


def report(package, model, val, vf, chars, vidx):
    """what the table rows need, package vs fine-tuned, on the unseen faces' samples, 150 dpi apart (stop 38)"""
    modes = [(f'{m} scans', [i for i in vidx if val[i].get('mode', 'grey') == m]) for m in ['grey', 'threshold', 'dither', 'faded']]
    for name, part in [('all dpi', vidx), ('150 dpi', [i for i in vidx if val[i].get('dpi') == 150]), ('200-300 dpi', [i for i in vidx if val[i].get('dpi', 0) > 150])] + modes:
        if not part:
            continue
        print(f'validation (unseen faces) by kind, {name}: package -> fine-tuned, exact')
        for kind, test in [('all', lambda t: True)] + KINDS:
            idx = [i for i in part if test(val[i]['label'])]
            if idx:
                print('  %-34s %5d  %.3f -> %.3f' % (kind, len(idx), exact(package, val, vf, chars, idx), exact(model, val, vf, chars, idx)))


def main():
    dir = sys.argv[1]
    epochs, pull, distill, keep = arg('--epochs', 3), arg('--pull', 1e-3), arg('--distill', 3.0), arg('--keep', 1.0)
    out = arg('--out', os.path.join(ROOT, 'resources', 'ocr', 'ch_PP-OCRv4_rec_head.npz'))
    torch.manual_seed(0)
    torch.set_num_threads(1)
    rng = np.random.default_rng(0)
    chars = dictionary()
    index = {c: i + 1 for i, c in enumerate(chars)}
    train, tf = load(dir, 'train', 'train2', 'train150', 'train40')
    val, vf = load(dir, 'val')
    # samples whose label fits the CTC steps (a repeated character needs a blank between)
    def usable(s):
        need = len(s['label']) + sum(a == b for a, b in zip(s['label'], s['label'][1:]))
        return all(c in index for c in s['label']) and need <= s['steps']
    # a reading the eval (and the reader) counts as right — the same after NFKC with spaces dropped ("IV类" for
    # "Ⅳ类", "(V)" for "（V）") — is the label: the head is not pushed from one right spelling to another
    # --dash-equal (not measured yet): so is a reading that differs only by which dash it has (一 — - －): the
    # reader's cell clean-up decides a dash from its column and neighbours, and taught by shape alone the head read
    # 一 in running text as — (v3a: "丘陵—般", "一一遥" on the tuning tables)
    dashes = '[一—\\-－]' if '--dash-equal' in sys.argv else '[-]'
    dashless = lambda t: re.sub(dashes, '-', norm(t))
    for s in train + val:
        if s['old'] != s['label'] and dashless(s['old']) == dashless(s['label']) and all(c in index for c in s['old'].strip()):
            s['label'] = s['old'].strip()
    tidx = [i for i, s in enumerate(train) if usable(s)]
    vidx = [i for i, s in enumerate(val) if usable(s)]
    model = Head(package_weights())
    if '--report' in sys.argv:
        # --report HEAD.npz: the by-kind validation table of a head trained before, nothing trained
        w = package_weights()
        w.update({k: v.reshape(w[k].shape) for k, v in np.load(arg('--report', '')).items()})
        report(Head(package_weights()), Head(w), val, vf, chars, vidx)
        return
    # the package's reading, recomputed here: the same as the ONNX model's (checks the layers are the same maths)
    check = tidx[:200]
    with torch.no_grad():
        same = sum(t == train[i]['old'] for b in range(0, len(check), 50) for t, i in zip(decode(model(batch(train, tf, check[b : b + 50])), [train[i]['steps'] for i in check[b : b + 50]], chars), check[b : b + 50]))
    print(f'package layers in torch read {same}/{len(check)} samples as the ONNX model did')
    if same < len(check) * 0.98:
        sys.exit('the torch copy of the last layers does not match the ONNX model')
    # --lone K: a lone short cell (<= 2 characters, no Han: "0", "±3", "Ⅱ", "A") is seen K times an epoch; v3b read
    # some as nothing at 150 dpi where the package read them
    lone = arg('--lone', 1)
    if lone > 1:
        tidx = tidx + [i for i in tidx if len(train[i]['label']) <= 2 and not HAN.search(train[i]['label'])] * (lone - 1)
    lines = [i for i in tidx if train[i]['steps'] > 100]
    print(f'train {len(tidx)} samples ({len(lines)} statute lines), val {len(vidx)}')
    before = (exact(model, train, tf, chars, tidx[:1000]), exact(model, val, vf, chars, vidx), exact(model, train, tf, chars, lines[:300]))
    print('package: train %.3f, val (unseen faces) %.3f, statute lines %.3f' % before)
    # classes no training label holds keep their column of the head as it was: Adam would turn the tiny push
    # softmax gives them everywhere into full-size steps, and rare characters of running text be forgotten
    seen = torch.zeros(len(chars) + 1, dtype=torch.bool)
    seen[0] = True
    for i in tidx:
        for c in train[i]['label']:
            seen[index[c]] = True
    print(f'{int(seen.sum())} of {len(chars) + 1} classes in the training labels')
    # --fc-only: the CTC head alone (the 1x1 convolution and its batch norm keep the package's values)
    params = [model.fc, model.bias] if '--fc-only' in sys.argv else list(model.parameters())
    opt = torch.optim.Adam(params, lr=arg('--lr', 1e-3))
    size = 32
    for epoch in range(epochs):
        t0 = time.time()
        # similar lengths together (less padding), batches in random order
        order = sorted(tidx, key=lambda i: (train[i]['steps'], rng.random()))
        groups = [order[b : b + size] for b in range(0, len(order), size)]
        rng.shuffle(groups)
        total = 0.0
        for g in groups:
            x = batch(train, tf, g)
            own = model(x)
            logp = own.transpose(0, 1)
            targets = torch.tensor([index[c] for i in g for c in train[i]['label']], dtype=torch.long)
            loss = F.ctc_loss(logp, targets, torch.tensor([train[i]['steps'] for i in g]), torch.tensor([len(train[i]['label']) for i in g]), blank=0, reduction='sum', zero_infinity=True) / len(g)
            loss = loss + pull * model.pull()
            if distill:
                # learning without forgetting: every step's distribution kept near the package's (KL, summed over
                # steps, mean over samples), so only what the labels contradict moves
                ref = model.package_logp(x)
                mask = torch.zeros(own.shape[:2])
                for k, i in enumerate(g):
                    mask[k, : train[i]['steps']] = 1
                kl = (ref.exp() * (ref - own)).sum(-1)
                # --keep K (stop 40): a sample the package already reads exactly is held K times as hard to the
                # package's distribution — its readings where it is right are what v4 lost (a lone 0, 土 in 明体)
                keepw = torch.tensor([keep if train[i]['old'].strip() == train[i]['label'] else 1.0 for i in g]).unsqueeze(1)
                loss = loss + distill * (kl * mask * keepw).sum() / len(g)
            opt.zero_grad()
            loss.backward()
            model.fc.grad[:, ~seen] = 0
            model.bias.grad[~seen] = 0
            opt.step()
            total += loss.item() * len(g)
        for q in opt.param_groups:
            q['lr'] *= 0.6
        after = (exact(model, train, tf, chars, tidx[:1000]), exact(model, val, vf, chars, vidx), exact(model, train, tf, chars, lines[:300]))
        print('epoch %d: loss %.3f, pull %.2f, train %.3f, val %.3f, statute lines %.3f (%.0f s)' % (epoch + 1, total / len(tidx), model.pull().item(), *after, time.time() - t0))
    report(Head(package_weights()), model, val, vf, chars, vidx)
    weights = model.weights()
    blend = arg('--blend', 1.0)
    if blend != 1.0:
        # --blend B: the head written is the package's values moved B of the way to the trained ones (weight-space
        # interpolation: the 150 dpi tables lost rows to the full step, v3b in docs/ocr.md)
        start = package_weights()
        weights = {k: (start[k].reshape(v.shape) + blend * (v - start[k].reshape(v.shape))).astype(np.float32) for k, v in weights.items()}
        print(f'written {blend} of the way from the package head to the trained one')
    save_npz(out, weights)
    print(f'{out} written')


def save_npz(out, weights):
    """np.savez with fixed zip dates (np.savez stamps the time): the same tensors give the same file, byte for byte"""
    import io
    import zipfile
    with zipfile.ZipFile(out, 'w', zipfile.ZIP_STORED) as z:
        for k, v in weights.items():
            buf = io.BytesIO()
            np.lib.format.write_array(buf, np.ascontiguousarray(v), allow_pickle=False)
            z.writestr(zipfile.ZipInfo(k + '.npy', date_time=(1980, 1, 1, 0, 0, 0)), buf.getvalue())


if __name__ == '__main__':
    main()

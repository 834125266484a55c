#!/usr/bin/python3
"""
Trains GridCode's own Chinese retrieval model (gridcode-zh) on this machine, CPU only, in minutes.

Model: an embedding bag over a word vocabulary. A text is tokenised exactly like the shipped
tokenizer.json does it in transformers.js (NFKC + lowercase, split into runs of at most 16 CJK
characters / ASCII letters / digits / single other characters, then greedy longest match against
the vocabulary = WordPiece with an empty continuation prefix). Its vector is the weighted mean of
its token vectors with a learned per-token weight (separate weights for queries and passages);
queries (marked by the special token [Q], the manifest's query prefix) also go through a learned
linear projection. Trained with an in-batch contrastive loss on
  - STARD train questions -> their articles (only the training split, see split_of()),
  - inverse-cloze pairs from statutes (a sentence -> its article), and recipes (dish name -> recipe).

Writes <out>/weights.bin + <out>/weights.json (int8 token table with per-row scales, fp32 weights
and projection) and the tokenizer files; scripts/train-model.ts turns them into onnx/model.onnx and
checks that onnxruntime-node reproduces the torch vectors.

Never reads STARD dev or any evaluation set other than the held-out part of train.jsonl, which is
only used to print the dense retrieval quality at the end.
"""
import argparse
import collections
import json
import math
import os
import random
import re
import sys
import time
import unicodedata

import numpy as np
import torch
import torch.nn.functional as F

SPECIALS = ['[PAD]', '[UNK]', '[Q]']
PAD, UNK, QTOK = 0, 1, 2
MAX_RUN = 16
MAX_WORD = 8
MAX_TOKENS = 512
# Same pattern in tokenizer.json (transformers.js Split pre-tokenizer, invert=true: keep matches).
PIECE_RE = '[\u4e00-\u9fff]{1,16}|[a-z]+|[0-9]+|[^\\s\u4e00-\u9fffa-z0-9]'
PIECE = re.compile(PIECE_RE)
ARTICLE_RE = re.compile(r'^(第[零〇一二三四五六七八九十百千万]+条(?:之[一二三四五六七八九十]+)?)[\s\u3000]*(.*)$')


def log(*a):
    print(time.strftime('%H:%M:%S'), *a, flush=True)


def split_of(qid):
    """Fixed hash split of STARD train.jsonl: 1 in 5 questions is held out (never trained on)."""
    return 'heldout' if (qid * 2654435761) % (2 ** 32) % 5 == 0 else 'train'


def norm_title(t):
    t = unicodedata.normalize('NFKC', t)
    t = re.sub(r'\s+', '', t)
    t = re.sub(r'[（(]\d{4}-\d{2}-\d{2}[)）]$', '', t)
    t = re.sub(r'^中华人民共和国', '', t)
    return t.replace('《中华人民共和国', '《')


# ---------------------------------------------------------------- corpora

def load_articles(laws):
    """Statute files -> articles {title, passage (as the app embeds it: section path + text), key}."""
    out = []
    files = []
    for root, _, names in os.walk(laws):
        for n in names:
            if n.endswith('.md') and not n.startswith('_'):
                files.append(os.path.join(root, n))
    files.sort()
    for f in files:
        text = open(f, encoding='utf-8').read()
        lines = text.split('\n')
        titles = [l[2:].strip() for l in lines[:20] if l.startswith('# ')]
        if not titles:
            continue
        body = text.split('<!-- INFO END -->', 1)[-1].split('\n')
        heads = {}
        cur = None
        for line in body:
            s = line.strip()
            if not s:
                continue
            m = re.match(r'^(#{2,6})\s+(.*)$', s)
            if m:
                level = len(m.group(1))
                heads = {k: v for k, v in heads.items() if k < level}
                heads[level] = re.sub(r'\s+', ' ', m.group(2).strip())
                cur = None
                continue
            if s.startswith('# ') or s.startswith('<!--'):
                continue
            am = ARTICLE_RE.match(s)
            if am:
                section = ' > '.join(heads[k] for k in sorted(heads))
                cur = {'file': f, 'titles': titles, 'label': am.group(1), 'section': section, 'lines': [s]}
                out.append(cur)
            elif cur is not None:
                cur['lines'].append(s)
    for a in out:
        body = '\n'.join(a.pop('lines'))
        path = (a['section'] + ' > ' if a['section'] else '') + a['label']
        a['text'] = body
        a['passage'] = path + '\n' + body[:1000]
    return out


def load_recipes(root):
    out = []
    for r, _, names in os.walk(root):
        for n in sorted(names):
            if n.endswith('.md'):
                t = open(os.path.join(r, n), encoding='utf-8').read()
                m = re.search(r'^#\s+(.+)$', t, re.M)
                name = (m.group(1) if m else n[:-3]).replace('的做法', '').strip()
                out.append((name, t[:1000]))
    out.sort()
    return out


def load_device_texts(root):
    texts = []

    def walk(v):
        if isinstance(v, str):
            if re.search('[\u4e00-\u9fff]', v):
                texts.append(v)
        elif isinstance(v, dict):
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    if os.path.isdir(root):
        for n in sorted(os.listdir(root)):
            if n.endswith('.json'):
                walk(json.load(open(os.path.join(root, n), encoding='utf-8')))
    return texts


# ---------------------------------------------------------------- tokenizer

def normalize(t):
    return unicodedata.normalize('NFKC', t).lower()


class Tokenizer:
    def __init__(self, vocab):
        self.vocab = vocab
        self.ids = {w: i for i, w in enumerate(vocab)}
        self.maxlen = max(len(w) for w in vocab if w not in SPECIALS)
        self.memo = {}  # piece -> tokens (clauses repeat a lot in statutes)

    def pieces(self, text):
        return PIECE.findall(normalize(text))

    def encode(self, text, limit=MAX_TOKENS):
        ids = self.ids
        memo = self.memo
        out = []
        for p in self.pieces(text):
            hit = memo.get(p)
            if hit is not None:
                out.extend(hit)
                if len(out) >= limit:
                    break
                continue
            if len(p) > 100:
                out.append(UNK)
                continue
            i = 0
            n = len(p)
            toks = []
            while i < n:
                for j in range(min(n, i + self.maxlen), i, -1):
                    t = ids.get(p[i:j])
                    if t is not None:
                        toks.append(t)
                        i = j
                        break
                else:
                    toks = [UNK]  # WordPiece: one unknown character makes the whole piece [UNK]
                    break
            out.extend(toks)
            if len(memo) < 2_000_000:
                memo[p] = toks
            if len(out) >= limit:
                break
        return out[:limit]


def build_vocab(texts, min_count, max_words):
    import jieba
    jieba.setLogLevel(60)
    counts = collections.Counter()
    chars = collections.Counter()
    for i, t in enumerate(texts):
        for p in PIECE.findall(normalize(t)):
            if re.match('[\u4e00-\u9fff]', p) or re.match('[a-z]', p):
                for w in jieba.cut(p, HMM=False):
                    if 1 < len(w) <= MAX_WORD:
                        counts[w] += 1
            elif len(p) == 1:
                chars[p] += 1
        if i % 20000 == 0:
            log(f'  vocab: {i}/{len(texts)} texts, {len(counts)} words')
    words = [w for w, c in counts.most_common(max_words) if c >= min_count]
    singles = [chr(c) for c in range(0x4e00, 0xa000)]
    singles += list('abcdefghijklmnopqrstuvwxyz0123456789')
    singles += [c for c, n in chars.most_common() if n >= min_count and c not in singles]
    seen = set(SPECIALS)
    vocab = list(SPECIALS)
    for w in sorted(singles) + sorted(words):
        if w not in seen:
            seen.add(w)
            vocab.append(w)
    return vocab


# ---------------------------------------------------------------- model

class Bag(torch.nn.Module):
    def __init__(self, V, D, idf):
        super().__init__()
        self.emb = torch.nn.Parameter(torch.randn(V, D) * 0.1)
        raw = torch.log(torch.expm1(torch.clamp(idf, min=0.05)))  # softplus^-1(idf)
        self.wp = torch.nn.Parameter(raw.clone())
        self.wq = torch.nn.Parameter(raw.clone())
        self.proj = torch.nn.Parameter(torch.eye(D))

    def forward(self, flat, offsets, bag, B, query):
        w = F.softplus(self.wq if query else self.wp)[flat]
        w = torch.where(flat == PAD, torch.zeros_like(w), w)
        s = F.embedding_bag(flat, self.emb, offsets, mode='sum', per_sample_weights=w, sparse=True)
        den = torch.zeros(B).index_add_(0, bag, w)
        v = s / (den.unsqueeze(1) + 1e-6)
        if query:
            v = v @ self.proj
        return F.normalize(v, dim=1)


def pack(seqs):
    lens = [max(1, len(s)) for s in seqs]
    flat = []
    for s in seqs:
        flat.extend(s if s else [PAD])
    offsets = np.zeros(len(seqs), dtype=np.int64)
    offsets[1:] = np.cumsum(lens)[:-1]
    bag = np.repeat(np.arange(len(seqs)), lens)
    return torch.tensor(flat, dtype=torch.long), torch.tensor(offsets), torch.tensor(bag), len(seqs)


@torch.no_grad()
def encode_all(model, seqs, query, bs=4096):
    out = []
    for i in range(0, len(seqs), bs):
        out.append(model(*pack(seqs[i:i + bs]), query=query))
    return torch.cat(out)


def evaluate(model, q_seqs, gold, p_emb):
    qv = encode_all(model, q_seqs, True)
    scores = qv @ p_emb.T
    top = torch.topk(scores, 100, dim=1).indices.numpy()
    r10 = r100 = mrr = 0.0
    for i, g in enumerate(gold):
        g = set(g)
        row = list(top[i])
        r100 += len(g & set(row)) / len(g)
        r10 += len(g & set(row[:10])) / len(g)
        for rank, pid in enumerate(row[:10]):
            if pid in g:
                mrr += 1 / (rank + 1)
                break
    n = max(1, len(gold))
    return r10 / n, r100 / n, mrr / n


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--shared', default=os.environ.get('GRIDCODE_SHARED_DIR', os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared')))
    ap.add_argument('--resources', default=os.path.join(os.path.dirname(__file__), '..', '..', 'resources'))
    ap.add_argument('--out', required=True)
    ap.add_argument('--cache', default=None)
    ap.add_argument('--dims', type=int, default=256)
    ap.add_argument('--epochs', type=int, default=5)
    ap.add_argument('--ict', type=int, default=40000, help='inverse-cloze pairs per epoch')
    ap.add_argument('--repeat', type=int, default=6, help='STARD train pairs per epoch (times)')
    ap.add_argument('--batch', type=int, default=256)
    ap.add_argument('--temp', type=float, default=0.05)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--min-count', type=int, default=4)
    ap.add_argument('--max-words', type=int, default=120000)
    ap.add_argument('--subset', type=int, default=0, help='use only N statute articles (quick iteration)')
    ap.add_argument('--seed', type=int, default=20261123)
    # one thread: OpenMP workers spin-wait and crawl on a shared, oversubscribed machine
    ap.add_argument('--threads', type=int, default=1)
    ap.add_argument('--eval-every', type=int, default=0, help='also evaluate every N epochs (0: only at the end)')
    args = ap.parse_args()
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    torch.set_num_threads(args.threads)
    shared = os.path.abspath(args.shared)
    laws = os.path.join(shared, 'data', 'laws')
    stard = os.path.join(shared, 'data', 'stard', 'train.jsonl')
    if not os.path.isdir(laws) or not os.path.isfile(stard):
        sys.exit(f'缺少训练数据：{laws} 或 {stard}')
    os.makedirs(args.out, exist_ok=True)
    cache = args.cache or args.out
    os.makedirs(cache, exist_ok=True)
    t0 = time.time()

    log('reading statutes ...')
    arts = load_articles(laws)
    log(f'{len(arts)} articles')
    recipes = load_recipes(os.path.join(shared, 'data', 'howtocook', 'dishes'))
    devices = load_device_texts(os.path.join(args.resources, 'homes'))
    log(f'{len(recipes)} recipes, {len(devices)} device strings')

    # gold: (normalised title, label) -> article indexes
    by_key = collections.defaultdict(list)
    for i, a in enumerate(arts):
        ts = {norm_title(t) for t in a['titles']}
        ts.add(norm_title(os.path.basename(a['file'])[:-3]))
        for t in ts:
            by_key[(t, a['label'])].append(i)
    qs = {'train': [], 'heldout': []}
    for line in open(stard, encoding='utf-8'):
        if not line.strip():
            continue
        q = json.loads(line)
        gold = set()
        for rel in q['relevant']:
            m = re.match(r'^(.*?)(第[零〇一二三四五六七八九十百千万]+条(?:之[一二三四五六七八九十]+)?)$', rel.strip())
            if m:
                gold.update(by_key.get((norm_title(m.group(1)), m.group(2)), []))
        if gold:
            qs[split_of(q['id'])].append((q['question'], sorted(gold)))
    log(f'STARD: {len(qs["train"])} train questions, {len(qs["heldout"])} held out (not trained on)')

    vocab_file = os.path.join(cache, f'vocab-{args.min_count}-{args.max_words}.json')
    if os.path.exists(vocab_file):
        vocab = json.load(open(vocab_file, encoding='utf-8'))
    else:
        log('building vocabulary (jieba over statutes, train questions, recipes, devices) ...')
        texts = [a['passage'] for a in arts] + [q for q, _ in qs['train']] + [t for _, t in recipes] + devices
        vocab = build_vocab(texts, args.min_count, args.max_words)
        json.dump(vocab, open(vocab_file, 'w', encoding='utf-8'), ensure_ascii=False)
    tok = Tokenizer(vocab)
    V = len(vocab)
    log(f'vocabulary {V} tokens')

    if args.subset:
        rng = random.Random(args.seed)
        keep = set(rng.sample(range(len(arts)), min(args.subset, len(arts))))
        for _, g in qs['train'] + qs['heldout']:
            keep.update(g)
        remap = {}
        new = []
        for i in sorted(keep):
            remap[i] = len(new)
            new.append(arts[i])
        arts = new
        qs = {k: [(q, [remap[i] for i in g]) for q, g in v] for k, v in qs.items()}
        log(f'subset: {len(arts)} articles')

    log('tokenising ...')
    tok_cache = os.path.join(cache, f'passages-{len(vocab)}-{len(arts)}.npz')
    if os.path.exists(tok_cache) and not args.subset:
        z = np.load(tok_cache)
        flat, lens = z['flat'].tolist(), z['lens'].tolist()
        p_seqs = []
        at = 0
        for n in lens:
            p_seqs.append(flat[at:at + n])
            at += n
    else:
        p_seqs = [tok.encode(a['passage']) for a in arts]
        if not args.subset:
            np.savez(tok_cache, flat=np.array([t for s in p_seqs for t in s], dtype=np.int32), lens=np.array([len(s) for s in p_seqs], dtype=np.int32))
    log(f'tokenised {len(p_seqs)} passages ({sum(map(len, p_seqs)) / max(1, len(p_seqs)):.0f} tokens avg), {time.time() - t0:.0f} s')
    qtrain = [(tok.encode(q), g) for q, g in qs['train']]
    qheld = [(tok.encode(q), g) for q, g in qs['heldout']]
    recipe_pairs = [(tok.encode(n), tok.encode(t)) for n, t in recipes]

    # idf over passages initialises the token weights (frequent function words start low)
    df = np.zeros(V)
    for s in p_seqs:
        for t in set(s):
            df[t] += 1
    idf = torch.tensor(np.log((len(p_seqs) + 1) / (df + 1)) / 4, dtype=torch.float32)

    # inverse-cloze sources: sentences of articles (split on 。；), with at least 6 characters
    sent_re = re.compile(r'[^。；！？\n]{6,}[。；！？]?')

    def ict_pairs(rng, n):
        pairs = []
        tries = 0
        while len(pairs) < n and tries < n * 5:
            tries += 1
            i = rng.randrange(len(arts))
            sents = sent_re.findall(arts[i]['text'])
            if len(sents) < 1:
                continue
            s = rng.choice(sents)
            pairs.append((tok.encode(s, 64), i))
        return pairs

    model = Bag(V, args.dims, idf)
    # the token table gets sparse updates (only rows in the batch): dense Adam over 11M floats per step was 10x slower
    opts = [torch.optim.SparseAdam([model.emb], lr=1e-3), torch.optim.Adam([model.wp, model.wq, model.proj], lr=1e-3)]
    rng = random.Random(args.seed)
    p_emb = None

    def run_eval(tag):
        model.eval()
        pe = encode_all(model, p_seqs, False)
        r10, r100, mrr = evaluate(model, [q for q, _ in qheld], [g for _, g in qheld], pe)
        log(f'{tag}: held-out dense R@10 {r10:.3f}  R@100 {r100:.3f}  MRR@10 {mrr:.3f}')
        model.train()
        return pe, (r10, r100, mrr)

    for epoch in range(args.epochs):
        lr = args.lr if epoch < args.epochs * 0.6 else args.lr * 0.3
        for opt in opts:
            for g in opt.param_groups:
                g['lr'] = lr
        items = []  # (query tokens, passage tokens, passage id or None)
        for _ in range(args.repeat):
            for q, gold in qtrain:
                pid = rng.choice(gold)
                items.append((q, p_seqs[pid], pid))
        for s, i in ict_pairs(rng, args.ict):
            items.append((s, p_seqs[i], i))
        for k, (n, t) in enumerate(recipe_pairs):
            items.append((n, t, -1 - k))
        rng.shuffle(items)
        total = 0.0
        steps = 0
        te = time.time()
        for b in range(0, len(items) - args.batch + 1, args.batch):
            batch = items[b:b + args.batch]
            qv = model(*pack([x[0] for x in batch]), query=True)
            pv = model(*pack([x[1] for x in batch]), query=False)
            logits = qv @ pv.T / args.temp
            # the same passage twice in a batch is not a negative of itself
            ids = torch.tensor([x[2] for x in batch])
            same = ids.unsqueeze(0) == ids.unsqueeze(1)
            same.fill_diagonal_(False)
            logits = logits.masked_fill(same, -1e4)
            labels = torch.arange(len(batch))
            loss = (F.cross_entropy(logits, labels) + F.cross_entropy(logits.T, labels)) / 2
            for opt in opts:
                opt.zero_grad()
            loss.backward()
            for opt in opts:
                opt.step()
            total += loss.item()
            steps += 1
            if steps % 100 == 0:
                log(f'  epoch {epoch + 1}/{args.epochs} step {steps}/{len(items) // args.batch} loss {total / steps:.3f}')
        log(f'epoch {epoch + 1}/{args.epochs}: loss {total / max(1, steps):.3f}, {time.time() - te:.0f} s (total {time.time() - t0:.0f} s)')
        if args.eval_every and (epoch + 1) % args.eval_every == 0:
            p_emb, metrics = run_eval(f'epoch {epoch + 1}')

    # ---- export: int8 token table with per-row scales
    model.eval()
    with torch.no_grad():
        E = model.emb.detach().numpy().astype(np.float32)
        scale = np.abs(E).max(axis=1) / 127.0
        scale[scale == 0] = 1.0
        q8 = np.clip(np.round(E / scale[:, None]), -127, 127).astype(np.int8)
        model.emb.data = torch.tensor(q8.astype(np.float32) * scale[:, None])
        wp = F.softplus(model.wp).detach().numpy().astype(np.float32)
        wq = F.softplus(model.wq).detach().numpy().astype(np.float32)
        wp[PAD] = wq[PAD] = 0.0
        wq[QTOK] = wp[QTOK] = 0.0
        W = model.proj.detach().numpy().astype(np.float32)
    _, qmetrics = run_eval('int8 table')
    blobs = [('emb_q8', q8), ('emb_scale', scale.astype(np.float32)), ('w_passage', wp), ('w_query', wq), ('proj', W)]
    meta = {'vocab_size': V, 'dims': args.dims, 'query_token_id': QTOK, 'pad_token_id': PAD, 'tensors': []}
    with open(os.path.join(args.out, 'weights.bin'), 'wb') as fh:
        off = 0
        for name, arr in blobs:
            b = np.ascontiguousarray(arr).tobytes()
            meta['tensors'].append({'name': name, 'dtype': str(arr.dtype), 'shape': list(arr.shape), 'offset': off, 'bytes': len(b)})
            fh.write(b)
            off += len(b)
    # reference vectors for the parity check in onnxruntime-node
    probe_q = [q for q, _ in qs['heldout'][:16]]
    probe_p = [a['passage'] for a in arts[:16]] + ['', 'ABC 123 ①②', '变压器 母线 失压 10kV']
    with torch.no_grad():
        ref_q = encode_all(model, [tok.encode(q, MAX_TOKENS - 1) for q in probe_q], True).numpy()
        ref_p = encode_all(model, [tok.encode(p) for p in probe_p], False).numpy()
    meta['probe'] = {
        'queries': probe_q, 'passages': probe_p,
        'query_tokens': [tok.encode(q, MAX_TOKENS - 1) for q in probe_q],
        'query_vectors': ref_q.round(6).tolist(), 'passage_vectors': ref_p.round(6).tolist(),
    }
    meta['quality'] = {'heldout_questions': len(qheld), 'dense_r10': round(qmetrics[0], 4), 'dense_r100': round(qmetrics[1], 4), 'dense_mrr10': round(qmetrics[2], 4),
                       'articles': len(arts), 'train_questions': len(qtrain), 'epochs': args.epochs, 'ict_per_epoch': args.ict, 'seconds': round(time.time() - t0)}
    meta['piece_regex'] = PIECE_RE
    meta['max_tokens'] = MAX_TOKENS
    json.dump(meta, open(os.path.join(args.out, 'weights.json'), 'w', encoding='utf-8'), ensure_ascii=False)
    json.dump(vocab, open(os.path.join(args.out, 'vocab.json'), 'w', encoding='utf-8'), ensure_ascii=False)
    log(f'done in {time.time() - t0:.0f} s -> {args.out}')


if __name__ == '__main__':
    main()

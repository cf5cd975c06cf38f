"""Residual MLP (the `alphazero` player's network, ported) vs small 3x3 conv nets, trained on the
same self-play samples, on one CPU thread. Data: the arrays written by dump/ (see run.sh).

python train.py DATA_DIR [--steps N] [--models mlp,conv32,conv64] [--rust-net FILE]
"""

import argparse
import json
import math
import os
import struct
import sys
import time

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_num_threads(1)
torch.set_num_interop_threads(1)

MOVES = 1457
FEATURES = 22
MAXM = 72  # the dump pads to 128; at most 68 legal moves were seen


def log(*a):
    print(*a, flush=True)


# ---------------------------------------------------------------- data
class Data:
    def __init__(self, d, prefix):
        meta = json.load(open(os.path.join(d, prefix + ".json")))
        n, m = meta["n"], meta["maxm"]
        assert meta["max_moves_seen"] <= MAXM
        self.n = n
        self.planes = torch.from_numpy(np.fromfile(os.path.join(d, prefix + ".planes.u8"), np.uint8).reshape(n, 192))
        self.feat = torch.from_numpy(np.fromfile(os.path.join(d, prefix + ".feat.f32"), "<f4").reshape(n, FEATURES))
        rows = np.fromfile(os.path.join(d, prefix + ".rows.i16"), "<i2").reshape(n, m)[:, :MAXM]
        self.rows = torch.from_numpy(rows.astype(np.int64))
        self.share = torch.from_numpy(np.ascontiguousarray(np.fromfile(os.path.join(d, prefix + ".share.f32"), "<f4").reshape(n, m)[:, :MAXM]))
        self.z = torch.from_numpy(np.fromfile(os.path.join(d, prefix + ".z.f32"), "<f4"))
        # Checks of the dump.
        mask = self.rows >= 0
        assert int(self.rows.max()) < MOVES and bool((self.share[~mask] == 0).all())
        sums = self.share.sum(1)
        assert float((sums - 1).abs().max()) < 1e-3, float((sums - 1).abs().max())
        assert bool(((self.z == -1) | (self.z == 0) | (self.z == 1)).all())
        pc = self.planes.view(n, 3, 64).sum(2)
        assert bool((pc[:, 0] <= 4).all() and (pc[:, 1] <= 4).all())
        # No square both a piece and a hole.
        assert int(self.planes.view(n, 3, 64).sum(1).max()) == 1
        log(f"{prefix}: {n} samples, legal moves mean {mask.sum(1).float().mean():.1f} max {int(mask.sum(1).max())}, "
            f"z mean {self.z.mean():+.3f}, draws {(self.z == 0).float().mean():.3f}")

    def batch(self, idx, sym=None, tables=None):
        planes, rows = self.planes[idx], self.rows[idx]
        if sym is not None:
            sq_gather, row_map = tables
            planes = planes.gather(1, sq_gather[sym])
            mask = rows >= 0
            rows = torch.where(mask, row_map[sym[:, None], rows.clamp(min=0)], rows)
        return planes.float(), self.feat[idx], rows, self.share[idx], self.z[idx]


def symmetry_tables(d):
    s = json.load(open(os.path.join(d, "sym.json")))
    assert s["features_invariant"], "the features change under a symmetry: they would need recomputing"
    sq = np.array(s["square"])  # [8][64]: image of each square
    gather = np.zeros((8, 192), np.int64)
    for k in range(8):
        for p in range(3):
            for q in range(64):
                gather[k, p * 64 + sq[k, q]] = p * 64 + q  # new[image] = old[q]
    return torch.from_numpy(gather), torch.tensor(s["row"], dtype=torch.int64)


# ---------------------------------------------------------------- models
class MLP(nn.Module):
    """network.rs: h1 = relu(W1 x + F d + b1), h2 = h1 + relu(W2 h1 + b2), value tanh(v.h2 + c),
    logits P[row].h2 + p[row]. Initialised as Parameters::random."""

    def __init__(self, hidden=128, features=True):
        super().__init__()
        self.features = features
        self.l1 = nn.Linear(192 + (FEATURES if features else 0), hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.policy = nn.Linear(hidden, MOVES)
        self.value = nn.Linear(hidden, 1)
        with torch.no_grad():
            u = lambda t, s: t.uniform_(-s, s)
            u(self.l1.weight[:, :192], math.sqrt(6 / 16))
            if features:
                u(self.l1.weight[:, 192:], math.sqrt(6 / FEATURES) * 0.5)
            u(self.l2.weight, math.sqrt(6 / hidden) * 0.5)
            u(self.policy.weight, 0.01)
            u(self.value.weight, 0.01)
            for b in (self.l1.bias, self.l2.bias, self.policy.bias, self.value.bias):
                b.zero_()

    def trunk(self, planes, feat):
        x = torch.cat([planes, feat], 1) if self.features else planes
        h1 = F.relu(self.l1(x))
        return h1 + F.relu(self.l2(h1))

    def forward(self, planes, feat):
        h = self.trunk(planes, feat)
        return self.policy(h), torch.tanh(self.value(h)).squeeze(1)

    def forward_rows(self, planes, feat, rows):
        """Logits of the given rows only (as the Rust kernel does)."""
        h = self.trunk(planes, feat)
        r = rows.clamp(min=0)
        logits = torch.einsum("bmh,bh->bm", self.policy.weight[r], h) + self.policy.bias[r]
        return logits, torch.tanh(self.value(h)).squeeze(1)

    def load_yolahpv(self, path):
        b = open(path, "rb").read()
        magic, hidden = b[:8], struct.unpack("<I", b[8:12])[0]
        assert magic == (b"YOLAHPF1" if self.features else b"YOLAHPV1") and hidden == self.l2.weight.shape[0]
        a = np.frombuffer(b[12:-8], "<f4")
        H, at = hidden, 0

        def take(n):
            nonlocal at
            at += n
            return torch.from_numpy(a[at - n:at].copy())

        with torch.no_grad():
            w1 = take(192 * H).view(192, H)
            wf = take(FEATURES * H).view(FEATURES, H) if self.features else None
            self.l1.weight.copy_(torch.cat([w1, wf], 0).t() if self.features else w1.t())
            self.l1.bias.copy_(take(H))
            self.l2.weight.copy_(take(H * H).view(H, H))  # unit j reads w2[j*H + i]
            self.l2.bias.copy_(take(H))
            self.policy.weight.copy_(take(MOVES * H).view(MOVES, H))
            self.policy.bias.copy_(take(MOVES))
            self.value.weight.copy_(take(H).view(1, H))
            self.value.bias.copy_(take(1))
        assert at == len(a)


class Block(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c1, self.b1 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
        self.c2, self.b2 = nn.Conv2d(c, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.b1(self.c1(x)))
        return F.relu(x + self.b2(self.c2(y)))


class Conv(nn.Module):
    """3x3 conv stem with C channels, `blocks` residual blocks of two 3x3 convs (BatchNorm), then
    AlphaZero-style heads: policy 1x1 conv to 4 planes, flattened (+22 features), linear to the
    1457 rows; value 1x1 conv to 2 planes, flattened (+22 features), FC 64, relu, FC 1, tanh."""

    def __init__(self, c=32, blocks=2, features=True, pplanes=4):
        super().__init__()
        self.features = features
        nf = FEATURES if features else 0
        self.stem, self.bn = nn.Conv2d(3, c, 3, padding=1, bias=False), nn.BatchNorm2d(c)
        self.blocks = nn.Sequential(*[Block(c) for _ in range(blocks)])
        self.pconv, self.pbn = nn.Conv2d(c, pplanes, 1, bias=False), nn.BatchNorm2d(pplanes)
        self.policy = nn.Linear(pplanes * 64 + nf, MOVES)
        self.vconv, self.vbn = nn.Conv2d(c, 2, 1, bias=False), nn.BatchNorm2d(2)
        self.v1 = nn.Linear(2 * 64 + nf, 64)
        self.v2 = nn.Linear(64, 1)

    def trunk(self, planes, feat):
        # Square index = rank*8 + file, so [3][64] -> [3][rank][file].
        x = planes.view(-1, 3, 8, 8)
        x = self.blocks(F.relu(self.bn(self.stem(x))))
        p = F.relu(self.pbn(self.pconv(x))).flatten(1)
        v = F.relu(self.vbn(self.vconv(x))).flatten(1)
        if self.features:
            p, v = torch.cat([p, feat], 1), torch.cat([v, feat], 1)
        return p, torch.tanh(self.v2(F.relu(self.v1(v)))).squeeze(1)

    def forward(self, planes, feat):
        p, v = self.trunk(planes, feat)
        return self.policy(p), v

    def forward_rows(self, planes, feat, rows):
        p, v = self.trunk(planes, feat)
        r = rows.clamp(min=0)
        return torch.einsum("bmh,bh->bm", self.policy.weight[r], p) + self.policy.bias[r], v


def fused(model):
    """A copy for inference with each BatchNorm folded into its conv."""
    import copy
    from torch.nn.utils.fusion import fuse_conv_bn_eval
    m = copy.deepcopy(model).eval()
    if isinstance(m, Conv):
        m.stem, m.bn = fuse_conv_bn_eval(m.stem, m.bn), nn.Identity()
        for b in m.blocks:
            b.c1, b.b1 = fuse_conv_bn_eval(b.c1, b.b1), nn.Identity()
            b.c2, b.b2 = fuse_conv_bn_eval(b.c2, b.b2), nn.Identity()
        m.pconv, m.pbn = fuse_conv_bn_eval(m.pconv, m.pbn), nn.Identity()
        m.vconv, m.vbn = fuse_conv_bn_eval(m.vconv, m.vbn), nn.Identity()
    return m


# ---------------------------------------------------------------- loss and metrics
def losses(logits_full, value, rows, share, z):
    """Per-sample policy cross-entropy over the legal moves (targets renormalised as zero.rs
    does), squared value error, and whether the top logit is the most visited move."""
    mask = rows >= 0
    logits = logits_full.gather(1, rows.clamp(min=0)).masked_fill(~mask, float("-inf"))
    logp = torch.log_softmax(logits, 1).masked_fill(~mask, 0.0)
    pi = share / share.sum(1, keepdim=True).clamp(min=1e-9)
    pol = -(pi * logp).sum(1)
    val = (value - z) ** 2
    top = (logits.argmax(1) == share.argmax(1)).float()
    return pol, val, top


@torch.no_grad()
def evaluate(model, data, idx, bs=2048):
    model.eval()
    sp = sv = st = 0.0
    for i in range(0, len(idx), bs):
        planes, feat, rows, share, z = data.batch(idx[i:i + bs])
        lg, v = model(planes, feat)
        p, vv, t = losses(lg, v, rows, share, z)
        sp += float(p.sum()); sv += float(vv.sum()); st += float(t.sum())
    model.train()
    n = len(idx)
    return sp / n, sv / n, st / n


def train(name, model, tr, te_sub, steps, bs, seed, tables, eval_every):
    g = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-4)  # L2 added to the gradient, as zero.rs
    perm = torch.randperm(tr.n, generator=g)
    at, t0, curve = 0, time.time(), []
    rp = rv = 0.0
    for step in range(1, steps + 1):
        if at + bs > tr.n:
            perm, at = torch.randperm(tr.n, generator=g), 0
        idx = perm[at:at + bs]; at += bs
        sym = torch.randint(0, 8, (bs,), generator=g)
        planes, feat, rows, share, z = tr.batch(idx, sym, tables)
        lg, v = model(planes, feat)
        p, vv, _ = losses(lg, v, rows, share, z)
        loss = p.mean() + vv.mean()
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        rp += float(p.detach().mean()); rv += float(vv.detach().mean())
        if step % eval_every == 0 or step == steps:
            k = eval_every if step % eval_every == 0 else step % eval_every
            e = evaluate(model, *te_sub)
            el = time.time() - t0
            curve.append((step, el, e))
            log(f"{name} step {step} ({step * bs / tr.n:.2f} epochs) {el:.0f}s  train pol {rp / k:.4f} val {rv / k:.4f}"
                f" | held-out subset pol {e[0]:.4f} val {e[1]:.4f} top1 {e[2]:.4f}")
            rp = rv = 0.0
    return time.time() - t0, curve


@torch.no_grad()
def speed(model, data, batch, rows_only, seconds=4.0):
    m = fused(model)
    idx = torch.arange(batch)
    planes, feat, rows, _, _ = data.batch(idx)
    f = (lambda: m.forward_rows(planes, feat, rows)) if rows_only else (lambda: m(planes, feat))
    with torch.inference_mode():
        for _ in range(20):
            f()
        n, t0 = 0, time.time()
        while time.time() - t0 < seconds:
            for _ in range(10):
                f()
            n += 10
        return n * batch / (time.time() - t0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("data")
    ap.add_argument("--steps", type=int, default=1500)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--models", default="mlp,conv32,conv64")
    ap.add_argument("--blocks", type=int, default=2)
    ap.add_argument("--no-features", action="store_true")
    ap.add_argument("--eval-every", type=int, default=250)
    ap.add_argument("--rust-net", default=None, help="a .yolahpv to check the port against")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=None, help="write the results as JSON here")
    ap.add_argument("--speed-only", action="store_true", help="only time inference (best of 3 runs of 4 s)")
    a = ap.parse_args()
    torch.manual_seed(a.seed)
    features = not a.no_features
    log(f"torch {torch.__version__}, threads {torch.get_num_threads()}, features {features}, "
        f"steps {a.steps} x batch {a.batch}, blocks {a.blocks}, seed {a.seed}")
    t_all = time.time()
    tr, te = Data(a.data, "train"), Data(a.data, "test")
    tables = symmetry_tables(a.data)
    te_all = torch.arange(te.n)
    if a.speed_only:
        for name in a.models.split(","):
            model = MLP(128, features) if name == "mlp" else Conv(int(name[4:]), a.blocks, features)
            model.eval()
            sp = {f"b{b}{'_rows' if ro else ''}": max(speed(model, te, b, ro) for _ in range(3))
                  for b in (1, 64) for ro in (False, True)}
            log(f"speed {name} best of 3 (pos/s): batch 1 {sp['b1']:.0f} (legal rows only {sp['b1_rows']:.0f}), "
                f"batch 64 {sp['b64']:.0f} (legal rows only {sp['b64_rows']:.0f})")
        return
    te_sub = (te, torch.randperm(te.n, generator=torch.Generator().manual_seed(9))[:8000])
    # The targets' own entropy: the floor of the cross-entropy.
    pi = te.share / te.share.sum(1, keepdim=True)
    ent = float(-(pi * torch.log(pi.clamp(min=1e-12))).sum(1).mean())
    log(f"held-out targets' entropy (cross-entropy floor): {ent:.4f}; value MSE of predicting 0: {float((te.z ** 2).mean()):.4f}")
    results = {"entropy": ent, "models": {}}
    if a.rust_net:
        ref = MLP(128, features)
        ref.load_yolahpv(a.rust_net)
        e = evaluate(ref, te, te_all)
        log(f"the run's network {a.rust_net} in the PyTorch port, all held-out: pol {e[0]:.5f} val {e[1]:.5f} top1 {e[2]:.4f}")
        results["rust_net"] = {"path": a.rust_net, "heldout": e}
    for name in a.models.split(","):
        torch.manual_seed(a.seed)
        if name == "mlp":
            model = MLP(128, features)
        else:
            model = Conv(int(name[4:]), a.blocks, features)
        params = sum(p.numel() for p in model.parameters())
        log(f"== {name}: {params} parameters")
        tt, curve = train(name, model, tr, te_sub, a.steps, a.batch, a.seed, tables, a.eval_every)
        e = evaluate(model, te, te_all)
        log(f"{name} trained in {tt:.0f}s ({tt / a.steps * 1000:.0f} ms/step); all held-out ({te.n}): "
            f"pol {e[0]:.4f} val {e[1]:.4f} top1 {e[2]:.4f}")
        sp = {}
        for b in (1, 64):
            for ro in (False, True):
                sp[f"b{b}{'_rows' if ro else ''}"] = speed(model, te, b, ro)
        log(f"{name} inference, one thread (pos/s): batch 1 {sp['b1']:.0f} (legal rows only {sp['b1_rows']:.0f}), "
            f"batch 64 {sp['b64']:.0f} (legal rows only {sp['b64_rows']:.0f})")
        results["models"][name] = {"params": params, "train_s": tt, "heldout": e, "curve": curve, "speed": sp}
        if a.out:
            json.dump(results, open(a.out, "w"), indent=1)
    log(f"total {time.time() - t_all:.0f}s")


if __name__ == "__main__":
    main()

"""Fit the learned hard player's card and bid models to self-play data and export the weights.

Reads the .npz files train/selfplay.py wrote, fits one multilayer perceptron per decision kind
(features -> the search's mean score per card or bid, the squared error counted on the
candidates the search scored), and writes the layers as plain float32 arrays for numpy
inference (engine/ai/learned.py). Needs PyTorch (`pip install -e '.[train]'`); the engine never
does. Reproducible from `--seed` on one machine: one thread, deterministic kernels, the data
shuffled by the seed.

    nice -n 19 .venv/bin/python train/fit.py --seed 1 --data 'train/data/selfplay-*.npz' \\
        --out engine/ai/weights/learned.npz

Printed per model: decisions, and on the held-out tenth the squared error and how often the
model's best candidate is the search's, and the mean points its choice gives up by the search's
own (noisy) values.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys

import numpy as np
import torch
from torch import nn

HIDDEN = {"card": (256, 256), "bid": (128, 128)}


def load(pattern: str, kind: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    paths = sorted(glob.glob(pattern))
    if not paths:
        raise SystemExit(f"train/fit.py: no data matches {pattern!r}")
    parts = [np.load(path) for path in paths]
    return tuple(  # type: ignore[return-value]
        np.concatenate([part[f"{kind}_{name}"] for part in parts]) for name in "xym"
    )


def network(inputs: int, hidden: tuple[int, ...], outputs: int) -> nn.Sequential:
    layers: list[nn.Module] = []
    width = inputs
    for size in hidden:
        layers += [nn.Linear(width, size), nn.ReLU()]
        width = size
    layers.append(nn.Linear(width, outputs))
    return nn.Sequential(*layers)


def masked_error(pred: torch.Tensor, y: torch.Tensor, m: torch.Tensor) -> torch.Tensor:
    return ((pred - y) ** 2 * m).sum() / m.sum().clamp(min=1.0)


def fit(kind: str, data: tuple[np.ndarray, np.ndarray, np.ndarray], seed: int, epochs: int,
        out: dict[str, np.ndarray]) -> None:
    x, y, m = (torch.from_numpy(part) for part in data)
    count = len(x)
    order = torch.randperm(count, generator=torch.Generator().manual_seed(seed))
    held = max(1, count // 10)
    test, train = order[:held], order[held:]
    model = network(x.shape[1], HIDDEN[kind], y.shape[1])
    optimiser = torch.optim.Adam(model.parameters(), lr=1e-3, weight_decay=1e-5)
    schedule = torch.optim.lr_scheduler.CosineAnnealingLR(optimiser, max(1, epochs))
    batch = 256
    shuffle = torch.Generator().manual_seed(seed + 1)
    for epoch in range(epochs):
        model.train()
        perm = train[torch.randperm(len(train), generator=shuffle)]
        for start in range(0, len(perm), batch):
            rows = perm[start:start + batch]
            optimiser.zero_grad()
            loss = masked_error(model(x[rows]), y[rows], m[rows])
            loss.backward()
            optimiser.step()
        schedule.step()
        if epoch == epochs - 1 or epoch % 10 == 0:
            print(f"  {kind} epoch {epoch + 1}: held-out {report(model, x, y, m, test)}",
                  file=sys.stderr, flush=True)
    print(f"{kind}: {count} decisions ({len(train)} fitted), held-out "
          f"{report(model, x, y, m, test)}")
    linear = [layer for layer in model if isinstance(layer, nn.Linear)]
    for i, layer in enumerate(linear):
        out[f"{kind}_w{i}"] = layer.weight.detach().numpy().T.astype(np.float32).copy()
        out[f"{kind}_b{i}"] = layer.bias.detach().numpy().astype(np.float32).copy()


def report(model: nn.Module, x: torch.Tensor, y: torch.Tensor, m: torch.Tensor,
           rows: torch.Tensor) -> str:
    model.eval()
    with torch.no_grad():
        pred = model(x[rows])
    yy, mm = y[rows], m[rows]
    error = masked_error(pred, yy, mm).item()
    masked = pred.masked_fill(mm == 0, -1e9)
    chosen = masked.argmax(dim=1)
    best = yy.masked_fill(mm == 0, -1e9).argmax(dim=1)
    agree = (chosen == best).float().mean().item()
    regret = (yy.gather(1, best[:, None]) - yy.gather(1, chosen[:, None])).mean().item()
    return f"error {error:.3f}, search's choice {100 * agree:.1f}%, regret {regret:.3f} pts"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--data", default="train/data/selfplay-*.npz", help="glob of .npz files")
    parser.add_argument("--epochs", type=int, default=40)
    parser.add_argument("--out", default="engine/ai/weights/learned.npz")
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    torch.use_deterministic_algorithms(True)
    arrays: dict[str, np.ndarray] = {}
    for kind in ("card", "bid"):
        fit(kind, load(args.data, kind), args.seed, args.epochs, arrays)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    np.savez_compressed(args.out, **arrays)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
